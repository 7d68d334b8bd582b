package dev.wastecheck.sources;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzz target: the streaming tokenizer on pg_dump's COPY text format (tabs, {@code \N}, backslash,
 * octal and hex escapes, {@code \.}), after a real COPY header, and on whatever follows it.
 */
class CopyTokenizerFuzzTest {
    private static final byte[] HEAD =
            ("--\n-- PostgreSQL database dump\n--\nCREATE TABLE public.t (a integer, b text);\n"
                            + "COPY public.t (a, b) FROM stdin;\n")
                    .getBytes(StandardCharsets.UTF_8);

    @FuzzTest(maxDuration = "3s")
    void copyRows(FuzzedDataProvider data) throws Exception {
        byte[] tail = data.consumeRemainingAsBytes();
        byte[] script = new byte[HEAD.length + tail.length];
        System.arraycopy(HEAD, 0, script, 0, HEAD.length);
        System.arraycopy(tail, 0, script, HEAD.length, tail.length);
        TokenizerFuzzing.readAll(script, false);
    }
}
