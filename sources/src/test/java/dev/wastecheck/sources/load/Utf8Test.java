package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Utf8#chars}: the check and the count, a word of ASCII at a time, against Java's strict decoder. */
class Utf8Test {

    /** Code points, or -1 where Java's decoder, reporting every malformed input, refuses the bytes. */
    private static int reference(byte[] b, int off, int len) {
        try {
            String s = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, off, len))
                    .toString();
            return s.codePointCount(0, s.length());
        } catch (CharacterCodingException e) {
            return -1;
        }
    }

    @Test
    void countsAndRefusesAsJavasStrictDecoderDoes() {
        // ASCII runs of every length between multi-byte characters (the word loop resumes after
        // each), and now and then a byte that breaks the UTF-8: a stray continuation, a cut
        // sequence, an overlong form, a surrogate, a code point past U+10FFFF, 0xff
        String[] valid = {
            "a",
            "\u0080",
            "\u07ff",
            "\u0800",
            "\ud7ff",
            "\ue000",
            "\uffff",
            "\udbff\udfff",
            "abcdefg",
            "abcdefghijklmnopq",
            " ",
            "é",
            "λόγος",
            "東京",
            "😀",
            "\u007f"
        };
        byte[][] broken = {
            {(byte) 0x80},
            {(byte) 0xc3},
            {(byte) 0xe6, (byte) 0x9d},
            {(byte) 0xc0, (byte) 0xaf},
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xff},
            {(byte) 0xe0, (byte) 0x80, (byte) 0x80},
            {(byte) 0xf0, (byte) 0x8f, (byte) 0xbf, (byte) 0xbf},
            {(byte) 0xf5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0xe2, (byte) 0x28, (byte) 0xa1}
        };
        Random random = new Random(32);
        int refused = 0;
        for (int round = 0; round < 20_000; round++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int pad = random.nextInt(9);
            for (int i = 0; i < pad; i++) {
                out.write('x'); // bytes before the value: the words start at every offset
            }
            int n = random.nextInt(14);
            for (int k = 0; k < n; k++) {
                if (random.nextInt(40) == 0) {
                    out.writeBytes(broken[random.nextInt(broken.length)]);
                } else {
                    out.writeBytes(valid[random.nextInt(valid.length)].getBytes(StandardCharsets.UTF_8));
                }
            }
            int len = out.size() - pad;
            int tail = random.nextInt(9);
            for (int i = 0; i < tail; i++) {
                out.write(
                        random.nextBoolean()
                                ? 0x80
                                : 'y'); // bytes after it are not read (0x80 would continue a cut character)
            }
            byte[] b = out.toByteArray();
            int want = reference(b, pad, len);
            refused += want < 0 ? 1 : 0;
            assertThat(Utf8.chars(b, pad, len))
                    .as("round %d: %s", round, java.util.HexFormat.of().formatHex(b, pad, pad + len))
                    .isEqualTo(want);
            assertThat(Utf8.isValid(b, pad, len)).isEqualTo(want >= 0);
        }
        assertThat(refused).as("the broken inputs were drawn").isBetween(1_000, 19_000);
    }

    /**
     * Bytes at random, high ones half the time and lead bytes of every kind among them, at every
     * offset and length up to 40 (a word's every position, the state carried between words, the
     * bytes after the last word) and now and then up to 160 (the 32-byte blocks, a block of ASCII
     * skipped after a cut character or between two halves of one): the same count or refusal as
     * Java's strict decoder.
     */
    @Test
    void randomBytesAreCountedOrRefusedAsJavasDecoderDoes() {
        Random random = new Random(3629);
        int valid = 0;
        for (int round = 0; round < 200_000; round++) {
            int pad = random.nextInt(9);
            int len = random.nextInt(8) == 0 ? random.nextInt(161) : random.nextInt(41);
            byte[] b = new byte[pad + len + random.nextInt(9)];
            boolean asciiRuns = random.nextInt(4) == 0; // long runs of ASCII: whole blocks skipped
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte)
                        (asciiRuns && (i / 16) % 3 != 0 || random.nextInt(3) == 0
                                ? random.nextInt(128)
                                : 0x80 + random.nextInt(128));
            }
            // most random high bytes break at once: make some values valid by writing whole characters
            if (random.nextBoolean()) {
                int at = pad;
                while (at < pad + len) {
                    int cp = switch (asciiRuns && (at / 16) % 3 != 0 ? 0 : random.nextInt(4)) {
                        case 0 -> random.nextInt(0x80);
                        case 1 -> 0x80 + random.nextInt(0x800 - 0x80);
                        case 2 -> 0x800 + random.nextInt(0x10000 - 0x800);
                        default -> 0x10000 + random.nextInt(0x110000 - 0x10000);
                    };
                    if (cp >= 0xd800 && cp < 0xe000) {
                        cp = random.nextInt(2) == 0 ? 0xd7ff : 0xe000; // the edges of the surrogates
                    }
                    byte[] c = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                    if (random.nextInt(30) == 0) {
                        c[random.nextInt(c.length)] ^= (byte) (1 << random.nextInt(8)); // now and then a bit flipped
                    }
                    for (int k = 0; k < c.length && at < pad + len; k++) {
                        b[at++] = c[k];
                    }
                }
            }
            int want = reference(b, pad, len);
            valid += want >= 0 ? 1 : 0;
            assertThat(Utf8.chars(b, pad, len))
                    .as("round %d: %s", round, java.util.HexFormat.of().formatHex(b, pad, pad + len))
                    .isEqualTo(want);
        }
        assertThat(valid).as("valid values drawn").isBetween(20_000, 180_000);
    }
}
