package dev.wastecheck.cli.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Text wrapped to a terminal's width, as the text reports print it: words move whole to the next
 * line, a word longer than a line is cut, and a no-break space ({@code U+00A0}) holds two words
 * together (it prints as a plain space). Nothing is truncated: what a DBA may apply (a type, a
 * name) must be readable in full, so it continues on the next line instead.
 */
public final class Wrap {
    /** Binds the words on either side: {@code "->" + NBSP + type} never leaves the arrow at a line's end. */
    public static final char NBSP = '\u00A0';

    private Wrap() {}

    /** {@code s} as one unbreakable word: "40.0 KiB" never ends a line at "40.0". */
    public static String together(String s) {
        return s.replace(' ', NBSP);
    }

    /** {@code text} in lines of at most {@code width} characters, breaking at spaces only. */
    public static List<String> lines(String text, int width) {
        return lines(text, width, width, "");
    }

    /**
     * {@code text} in lines, the first at most {@code firstWidth} characters and the others at most
     * {@code nextWidth}, breaking at the last space that fits (the break consumes it); a word too
     * long for a line breaks after its last character of {@code breakAfter} that fits (which stays
     * on the line it ends), or else is cut at the width. Line breaks in {@code text} are kept.
     */
    public static List<String> lines(String text, int firstWidth, int nextWidth, String breakAfter) {
        List<String> out = new ArrayList<>();
        for (String paragraph : text.split("\n", -1)) {
            String rest = paragraph.stripTrailing();
            while (rest.length() > width(out, firstWidth, nextWidth)) {
                int w = width(out, firstWidth, nextWidth);
                int cut = w;
                int next = w;
                // the last space that fits; in a word too long for the line, the last break character; else a cut
                int space = rest.lastIndexOf(' ', w);
                if (space > 0 && !rest.substring(0, space).isBlank()) {
                    cut = space;
                    next = space + 1;
                } else {
                    for (int i = w; i > 0; i--) {
                        if (breakAfter.indexOf(rest.charAt(i - 1)) >= 0) {
                            cut = i;
                            next = i;
                            break;
                        }
                    }
                }
                out.add(rest.substring(0, cut).stripTrailing().replace(NBSP, ' '));
                rest = rest.substring(next).stripLeading();
            }
            out.add(rest.replace(NBSP, ' '));
        }
        return out;
    }

    private static int width(List<String> done, int firstWidth, int nextWidth) {
        return Math.max(1, done.isEmpty() ? firstWidth : nextWidth);
    }

    /**
     * Prints {@code text} so that no line is wider than {@code width}: the first line after
     * {@code first}, the others after {@code next}, a hanging indent. Lines break at spaces, or
     * after a comma or slash in a word too long for the line (settings lists, paths).
     */
    public static void print(PrintWriter w, String text, int width, String first, String next) {
        List<String> lines = lines(text, width - first.length(), width - next.length(), ",/");
        for (int i = 0; i < lines.size(); i++) {
            w.println(((i == 0 ? first : next) + lines.get(i)).stripTrailing());
        }
    }

    /** Prints {@code text} wrapped to {@code width} with no indent. */
    public static void print(PrintWriter w, String text, int width) {
        print(w, text, width, "", "");
    }
}
