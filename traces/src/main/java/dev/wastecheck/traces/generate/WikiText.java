package dev.wastecheck.traces.generate;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The words, titles and article text of the generated wiki. Titles are unique by construction:
 * page id i is written in base {@link #WORDS} after a bijective scramble, one word per digit, so
 * ids 1..4096 get one-word titles, the next 16.7M two words, and so on. Article text is a slice of a
 * 1 MiB corpus of wiki markup (links, bold, headings, quotes, newlines, the odd backslash), so
 * every escape mysqldump knows occurs.
 */
final class WikiText {
    static final int WORDS = 4096;
    private static final String[] ONSETS = {
        "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "th", "ch"
    };
    private static final String[] VOWELS = {"a", "e", "i", "o", "u", "ia", "ou", "ei"};
    private static final String[] GREEK = {"Αθήνα", "Ελλάδα", "Πόλη", "Ιστορία", "Όμηρος", "Θάλασσα"};

    final String[] words = new String[WORDS];
    final byte[] corpus;
    private final long scramble;

    WikiText(long seed) {
        SplittableRandom r = new SplittableRandom(0x5eedL);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < WORDS; i++) {
            StringBuilder w = new StringBuilder();
            int syllables = 2 + (i % 3 == 0 ? 1 : 0) + (i % 11 == 0 ? 1 : 0);
            for (int s = 0; s < syllables; s++) {
                w.append(ONSETS[r.nextInt(ONSETS.length)]).append(VOWELS[r.nextInt(VOWELS.length)]);
            }
            if (i % 7 == 0) {
                w.append(ONSETS[r.nextInt(ONSETS.length)]);
            }
            String word = w.toString();
            if (i % 97 == 5) {
                word = word + "'s";
            } else if (i % 89 == 3) {
                word = GREEK[(i / 89) % GREEK.length] + word;
            }
            if (!seen.add(word.toLowerCase(Locale.ROOT))) {
                i--; // titles and user names must stay unique: draw this word again
                continue;
            }
            words[i] = word;
        }
        scramble = (seed * 2 + 1) | 1;
        corpus = buildCorpus();
    }

    /** The title of page {@code id} (1-based), unique per id. */
    String title(long id) {
        long v = id - 1;
        int k = 1;
        long range = WORDS;
        while (v >= range) {
            v -= range;
            range *= WORDS;
            k++;
        }
        long x = (v * scramble + 0x9E37L) & (range - 1);
        StringBuilder t = new StringBuilder();
        for (int i = 0; i < k; i++) {
            String w = words[(int) (x % WORDS)];
            x /= WORDS;
            if (i > 0) {
                t.append('_');
            }
            t.append(Character.toUpperCase(w.charAt(0))).append(w, 1, w.length());
        }
        return t.toString();
    }

    private byte[] buildCorpus() {
        SplittableRandom r = new SplittableRandom(0xC0FFEEL);
        StringBuilder sb = new StringBuilder(1 << 20);
        while (sb.length() < (1 << 20)) {
            int p = r.nextInt(100);
            if (p < 3) {
                sb.append("\n\n== ")
                        .append(cap(word(r)))
                        .append(' ')
                        .append(word(r))
                        .append(" ==\n");
            } else if (p < 10) {
                sb.append("[[").append(cap(word(r))).append('_').append(word(r)).append("]] ");
            } else if (p < 12) {
                sb.append("'''").append(word(r)).append("''' ");
            } else if (p < 13) {
                sb.append("\"").append(word(r)).append("\" ");
            } else if (p < 14) {
                sb.append("{{cite|").append(word(r)).append("}}\n");
            } else if (r.nextInt(1000) == 0) {
                sb.append("C:\\").append(word(r)).append(' ');
            } else {
                sb.append(word(r)).append(p < 20 ? ". " : " ");
            }
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private String word(SplittableRandom r) {
        return words[r.nextInt(WORDS)];
    }

    private static String cap(String w) {
        return Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }
}
