package dev.wastecheck.cli;

import dev.wastecheck.cli.render.Wrap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code --help} as a screen, not a manual: each option with the first sentence of its
 * description, the options of a shared mixin (the type policy, DuckDB's settings) and the ones
 * every command has listed by name on one line, and lines broken at spaces only, so that a URL or
 * a path in a description is never split at its {@code /} or {@code ?} (picocli breaks where
 * {@link java.text.BreakIterator} allows). Examples are printed as written: each fits 55 columns
 * (the narrowest help picocli draws), and a longer one continues on the next line after a
 * {@code \}. The man pages, generated from the same annotations at build time, keep every
 * description in full.
 */
final class HelpLayout {
    /** Where a description starts; names longer than this put it on the next line. */
    private static final int DESCRIPTION_COLUMN = 26;

    /** A sentence's end: a full stop before a capital or an opening parenthesis, not "e.g." or "i.e.". */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<!\\be\\.g|\\bi\\.e)\\.\\s+(?=[A-Z])");

    private static final Pattern DEFAULT = Pattern.compile("\\(default: [^()]*(?:\\([^()]*\\)[^()]*)*\\)");

    /** The options every command has, listed by name. */
    /**
     * Options the screen names without their sentence: those every command has, and analyze's
     * {@code --exact-space} (an opt-in full scan the man page explains), to keep the screen to 50 lines.
     */
    private static final List<String> COMMON =
            List.of("--output", "--quiet", "--help", "--version", "--debug", "--exact-space");

    private HelpLayout() {}

    /** Lays out the help of {@code cl} and of every subcommand under it. */
    static void install(CommandLine cl, int width) {
        Map<String, CommandLine.IHelpSectionRenderer> sections = cl.getHelpSectionMap();
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION, help -> description(help, width));
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_PARAMETER_LIST, help -> parameters(help, width));
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> options(help, width));
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, help -> footer(help, width));
        cl.setHelpSectionMap(sections);
        for (CommandLine sub : cl.getSubcommands().values()) {
            install(sub, width);
        }
    }

    /** The description's first paragraph: the man page has the rest. */
    private static String description(CommandLine.Help help, int width) {
        StringBuilder out = new StringBuilder();
        String[] paragraphs = help.commandSpec().usageMessage().description();
        if (paragraphs.length > 0) {
            for (String line : Wrap.lines(paragraphs[0], width)) {
                out.append(line).append('\n');
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String parameters(CommandLine.Help help, int width) {
        StringBuilder out = new StringBuilder();
        for (PositionalParamSpec p : help.commandSpec().positionalParameters()) {
            if (!p.hidden()) {
                row(out, p.paramLabel() + (p.arity().max() > 1 ? "..." : ""), firstSentence(p), width);
            }
        }
        return out.toString();
    }

    private static String options(CommandLine.Help help, int width) {
        CommandSpec spec = help.commandSpec();
        // options a mixin shares between commands: by name, under the mixin's heading
        Map<String, List<String>> folded = new LinkedHashMap<>();
        Map<OptionSpec, String> mixinOf = new LinkedHashMap<>();
        spec.mixins().forEach((name, mixin) -> {
            String heading = heading(mixin);
            if (heading != null) {
                mixin.options().forEach(o -> mixinOf.put(o, heading));
            }
        });
        StringBuilder out = new StringBuilder();
        List<String> common = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (o.hidden()) {
                continue;
            }
            String heading = mixinOf.entrySet().stream()
                    .filter(e -> e.getKey().longestName().equals(o.longestName()))
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElse(null);
            if (COMMON.contains(o.longestName())) {
                common.add(o.shortestName() + (o.arity().max() > 0 ? " " + o.paramLabel() : ""));
            } else if (heading != null) {
                folded.computeIfAbsent(heading, k -> new ArrayList<>()).add(names(o));
            } else {
                row(out, names(o), firstSentence(o), width);
            }
        }
        folded.forEach((heading, names) -> hanging(out, heading + ": " + String.join(", ", nbsp(names)), width));
        hanging(out, "Also: " + String.join(", ", nbsp(common)), width);
        return out.toString();
    }

    private static void hanging(StringBuilder out, String text, int width) {
        List<String> lines = Wrap.lines(text, width - 2, width - 4, "");
        for (int i = 0; i < lines.size(); i++) {
            out.append(i == 0 ? "  " : "    ").append(lines.get(i)).append('\n');
        }
    }

    private static List<String> nbsp(List<String> names) {
        return names.stream().map(Wrap::together).toList();
    }

    /** The heading a mixin's options are folded under, or null to list them one by one. */
    private static String heading(CommandSpec mixin) {
        Object user = mixin.userObject();
        if (user instanceof AnalysisOptions) {
            return "Type policy and DuckDB";
        }
        return null;
    }

    private static String footer(CommandLine.Help help, int width) {
        StringBuilder out = new StringBuilder();
        for (String line : help.commandSpec().usageMessage().footer()) {
            if (line.length() <= width) {
                out.append(line).append('\n');
            } else if (line.startsWith("  ")) {
                example(out, line.strip(), width);
            } else {
                Wrap.lines(line, width).forEach(l -> out.append(l).append('\n'));
            }
        }
        CommandSpec spec = help.commandSpec();
        if (spec.parent() != null) {
            out.append("Every option in full: man ")
                    .append(spec.qualifiedName("-"))
                    .append('\n');
        }
        return out.toString();
    }

    /**
     * An example command too long for a line, as a shell reads it: broken between arguments, each
     * line but the last ending in {@code \}, never inside an argument (a quoted one stays whole).
     */
    static void example(StringBuilder out, String command, int width) {
        List<String> args = new ArrayList<>();
        Matcher m = ARGUMENT.matcher(command);
        while (m.find()) {
            args.add(m.group());
        }
        StringBuilder line = new StringBuilder("  ");
        boolean first = true;
        for (String arg : args) {
            boolean fits = line.length() + 1 + arg.length() + 2 <= width;
            if (!first && !fits) {
                out.append(line).append(" \\\n");
                line = new StringBuilder("      ");
            } else if (!first) {
                line.append(' ');
            }
            line.append(arg);
            first = false;
        }
        out.append(line).append('\n');
    }

    /** One shell argument: quoted parts stay together ({@code 'jdbc:...?user=a&password=b'}). */
    private static final Pattern ARGUMENT = Pattern.compile("(?:'[^']*'|\"[^\"]*\"|[^\\s'\"])+");

    /** {@code -o, --output=FILE}, or {@code --trace=FILE}, as the names column shows an option. */
    private static String names(OptionSpec o) {
        StringBuilder sb = new StringBuilder();
        String[] names = o.names();
        if (names.length > 1) {
            sb.append(o.shortestName()).append(", ");
        }
        sb.append(o.longestName());
        if (o.arity().max() > 0) {
            sb.append('=').append(o.paramLabel());
        }
        return sb.toString();
    }

    /** The first sentence of a description, with its default when a later sentence gives it. */
    static String firstSentence(ArgSpec arg) {
        String full = String.join(" ", arg.description()).strip();
        Matcher end = SENTENCE_END.matcher(full);
        String first = end.find() ? full.substring(0, end.start() + 1) : full;
        if (!first.contains("(default")) {
            Matcher d = DEFAULT.matcher(full);
            if (d.find()) {
                first = first.endsWith(".") ? first.substring(0, first.length() - 1) + " " + d.group() + "." : first;
            }
        }
        return first;
    }

    private static void row(StringBuilder out, String names, String text, int width) {
        String left = "  " + names;
        List<String> lines = Wrap.lines(text, width - DESCRIPTION_COLUMN - 2); // 2 spare: a µs is two bytes to awk
        String pad = " ".repeat(DESCRIPTION_COLUMN);
        if (left.length() < DESCRIPTION_COLUMN) {
            out.append(left)
                    .append(" ".repeat(DESCRIPTION_COLUMN - left.length()))
                    .append(lines.get(0))
                    .append('\n');
        } else {
            out.append(left).append('\n').append(pad).append(lines.get(0)).append('\n');
        }
        for (String line : lines.subList(1, lines.size())) {
            out.append(pad).append(line).append('\n');
        }
    }
}
