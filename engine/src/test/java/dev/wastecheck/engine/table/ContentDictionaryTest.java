package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link ContentDictionary}: each distinct run of the values once, up to the cap, usable as a zstd dictionary. */
class ContentDictionaryTest {
    private static byte[] text(Random rnd, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) (0x21 + rnd.nextInt(0x5e));
        return b;
    }

    @Test
    void slicesOfOneTextGiveThatTextOnceAndFramesOfAFewReferences() {
        Random rnd = new Random(7);
        byte[] body = text(rnd, 64 << 10);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            int n = 500 + rnd.nextInt(3000), at = rnd.nextInt(body.length - n);
            values.add(Arrays.copyOfRange(body, at, at + n));
        }
        byte[] dict = ContentDictionary.build(values, 1 << 20);
        // every byte of the body that a slice covers, about once (runs overlap by less than a window)
        assertThat(dict.length).isBetween(60 << 10, 66 << 10);
        ZstdDictCompress c = new ZstdDictCompress(dict, Table.ZSTD_DICTIONARY_LEVEL);
        ZstdDictDecompress d = new ZstdDictDecompress(dict);
        long frames = 0, raw = 0;
        for (byte[] v : values) {
            byte[] f = Zstd.compress(v, c);
            assertThat(Zstd.decompress(f, d, v.length)).isEqualTo(v);
            frames += f.length;
            raw += v.length;
        }
        // random characters alone compress about 1.2x; as references into the dictionary more than 50x
        assertThat(raw / (double) frames).isGreaterThan(50);
    }

    @Test
    void theCapCutsTheDictionaryAndTooFewBytesMakeNone() {
        Random rnd = new Random(11);
        List<byte[]> values = List.of(text(rnd, 5000), text(rnd, 5000), text(rnd, 5000));
        assertThat(ContentDictionary.build(values, 8000)).hasSize(8000).startsWith(Arrays.copyOf(values.get(0), 100));
        assertThat(ContentDictionary.build(values, 1 << 20)).hasSize(15000);
        // runs shorter than a window are left to the frames' literals: nothing to hold
        assertThat(ContentDictionary.build(List.of("short".getBytes(StandardCharsets.US_ASCII)), 1024))
                .isNull();
    }

    @Test
    void aFirstRunBeginningWithTheDictionaryMagicIsPaddedSoZstdReadsRawContent() {
        byte[] v = text(new Random(3), 200);
        v[0] = 0x37;
        v[1] = (byte) 0xA4;
        v[2] = 0x30;
        v[3] = (byte) 0xEC;
        byte[] dict = ContentDictionary.build(List.of(v), 1024);
        assertThat(dict).hasSize(201);
        assertThat(dict[0]).isZero();
        byte[] f = Zstd.compress(v, new ZstdDictCompress(dict, 9));
        assertThat(Zstd.decompress(f, new ZstdDictDecompress(dict), v.length)).isEqualTo(v);
        assertThat(f.length).isLessThan(40);
    }
}
