package dev.wastecheck.traces.schema;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads table definitions from DDL text: mysqldump ({@code `name` int(10) unsigned NOT NULL,
 * UNIQUE KEY `name_title` (...)}), MediaWiki's schema scripts ({@code /*_*&#47;page}, {@code
 * UNIQUE INDEX}), and plain pg_dump ({@code CREATE [UNIQUE] INDEX ... ON}, {@code ALTER TABLE ONLY
 * ... ADD CONSTRAINT ... PRIMARY KEY}).
 *
 * <p>Line based and streaming: only statements starting with CREATE TABLE, CREATE INDEX or ALTER
 * TABLE are collected, so a multi-gigabyte dump costs one pass over its lines and no memory for its
 * INSERTs. It keeps what access analysis needs (names, declared types, keys); the analyzer's own
 * dump reader remains the authority on everything else.
 */
public final class DdlSchemaReader {
    private DdlSchemaReader() {}

    private static final Pattern STARTS_DDL = Pattern.compile(
            "^(CREATE\\s+(TEMPORARY\\s+)?TABLE|CREATE\\s+(UNIQUE\\s+)?INDEX|ALTER\\s+TABLE)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_TABLE = Pattern.compile(
            "^CREATE\\s+(?:TEMPORARY\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\S+?)\\s*\\(", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern CREATE_INDEX = Pattern.compile(
            "^CREATE\\s+(UNIQUE\\s+)?INDEX\\s+(?:CONCURRENTLY\\s+)?(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\S+)\\s+ON\\s+(?:ONLY\\s+)?(\\S+?)\\s*(?:USING\\s+\\w+\\s*)?\\((.*)\\)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ALTER_KEY = Pattern.compile(
            "^ALTER\\s+TABLE\\s+(?:ONLY\\s+)?(\\S+)\\s+ADD\\s+(?:CONSTRAINT\\s+(\\S+)\\s+)?(PRIMARY\\s+KEY|UNIQUE)\\s*\\(([^)]*)\\)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);
    private static final Pattern TYPE_END = Pattern.compile(
            "\\b(NOT|NULL|DEFAULT|AUTO_INCREMENT|AUTOINCREMENT|PRIMARY|UNIQUE|COMMENT|COLLATE|CHARACTER\\s+SET|CHARSET|REFERENCES|CHECK|GENERATED|CONSTRAINT|ON|IDENTITY)\\b",
            Pattern.CASE_INSENSITIVE);

    public static List<TableSchema> read(Path file) throws IOException {
        // lenient: a dump's blobs need not be UTF-8, and only the DDL's names matter here
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE);
        try (BufferedReader in = new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(file), decoder), 1 << 20)) {
            return read(in);
        }
    }

    public static List<TableSchema> parse(String ddl) {
        try {
            return read(new BufferedReader(new StringReader(ddl)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<TableSchema> read(BufferedReader in) throws IOException {
        Map<String, Builder> tables = new LinkedHashMap<>();
        StringBuilder stmt = null;
        String line;
        while ((line = in.readLine()) != null) {
            if (stmt == null) {
                String t = COMMENT.matcher(line).replaceAll("").trim();
                if (!STARTS_DDL.matcher(t).find()) {
                    continue;
                }
                stmt = new StringBuilder();
                line = t;
            }
            stmt.append(line).append('\n');
            if (line.stripTrailing().endsWith(";")) {
                statement(stmt.toString(), tables);
                stmt = null;
            }
        }
        if (stmt != null) {
            statement(stmt.toString(), tables);
        }
        List<TableSchema> out = new ArrayList<>();
        for (Builder b : tables.values()) {
            out.add(b.build());
        }
        return out;
    }

    private static void statement(String text, Map<String, Builder> tables) {
        String s = COMMENT.matcher(text).replaceAll("").trim();
        if (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1);
        }
        Matcher m = CREATE_TABLE.matcher(s);
        if (m.find()) {
            String name = unquoteName(m.group(1));
            int open = m.end() - 1;
            int close = matchingParen(s, open);
            Builder b = new Builder(name);
            for (String item : splitTopLevel(s.substring(open + 1, close))) {
                b.item(item.trim());
            }
            tables.put(name.toLowerCase(Locale.ROOT), b);
            return;
        }
        m = CREATE_INDEX.matcher(s);
        if (m.find()) {
            Builder b = tables.get(unquoteName(m.group(3)).toLowerCase(Locale.ROOT));
            if (b != null) {
                b.indexes.add(new IndexSchema(unquoteName(m.group(2)), keyColumns(m.group(4)), m.group(1) != null));
            }
            return;
        }
        m = ALTER_KEY.matcher(s);
        if (m.find()) {
            Builder b = tables.get(unquoteName(m.group(1)).toLowerCase(Locale.ROOT));
            if (b != null) {
                List<String> cols = keyColumns(m.group(4));
                if (m.group(3).toUpperCase(Locale.ROOT).startsWith("PRIMARY")) {
                    b.primaryKey = cols;
                } else {
                    b.indexes.add(new IndexSchema(m.group(2) == null ? String.join("_", cols) : unquote(m.group(2)), cols, true));
                }
            }
        }
    }

    /** {@code `db`.`t`}, {@code public.t}, {@code "t"} -> {@code t}. */
    static String unquoteName(String raw) {
        String r = raw.trim();
        int dot = lastDotOutsideQuotes(r);
        if (dot >= 0) {
            r = r.substring(dot + 1);
        }
        return unquote(r);
    }

    private static int lastDotOutsideQuotes(String s) {
        char q = 0;
        int last = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (q != 0) {
                if (c == q) {
                    q = 0;
                }
            } else if (c == '`' || c == '"' || c == '[') {
                q = c == '[' ? ']' : c;
            } else if (c == '.') {
                last = i;
            }
        }
        return last;
    }

    static String unquote(String s) {
        String t = s.trim();
        if (t.length() >= 2 && (t.charAt(0) == '`' || t.charAt(0) == '"' || t.charAt(0) == '[')) {
            return t.substring(1, t.length() - 1);
        }
        return t;
    }

    private static int matchingParen(String s, int open) {
        int depth = 0;
        char q = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (q != 0) {
                if (c == '\\' && q == '\'') {
                    i++;
                } else if (c == q) {
                    q = 0;
                }
                continue;
            }
            if (c == '\'' || c == '`' || c == '"') {
                q = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced parentheses in CREATE TABLE: " + s.substring(0, Math.min(80, s.length())));
    }

    static List<String> splitTopLevel(String body) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        char q = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (q != 0) {
                if (c == '\\' && q == '\'') {
                    i++;
                } else if (c == q) {
                    q = 0;
                }
                continue;
            }
            if (c == '\'' || c == '`' || c == '"') {
                q = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(body.substring(start, i));
                start = i + 1;
            }
        }
        if (start < body.length() && !body.substring(start).isBlank()) {
            parts.add(body.substring(start));
        }
        return parts;
    }

    /** {@code (`a`,`b`(50) DESC)} -> [a, b]: prefix lengths and sort orders are not part of the key's identity. */
    static List<String> keyColumns(String list) {
        List<String> cols = new ArrayList<>();
        for (String part : splitTopLevel(list)) {
            String p = part.trim();
            int paren = p.indexOf('(');
            if (paren > 0) {
                p = p.substring(0, paren);
            }
            p = p.replaceAll("(?i)\\s+(ASC|DESC)\\s*$", "").trim();
            cols.add(unquote(p));
        }
        return cols;
    }

    private static final class Builder {
        final String name;
        final List<ColumnSchema> columns = new ArrayList<>();
        List<String> primaryKey = List.of();
        final List<IndexSchema> indexes = new ArrayList<>();

        Builder(String name) {
            this.name = name;
        }

        void item(String item) {
            if (item.isEmpty()) {
                return;
            }
            String upper = item.toUpperCase(Locale.ROOT);
            String body = upper.startsWith("CONSTRAINT") ? item.replaceFirst("(?i)^CONSTRAINT\\s+(`[^`]*`|\"[^\"]*\"|\\S+)\\s+", "") : item;
            String ub = body.toUpperCase(Locale.ROOT);
            int paren = body.indexOf('(');
            if (paren < 0 || !ub.matches("(?s)^(PRIMARY\\s+KEY|UNIQUE|KEY|INDEX|FULLTEXT|SPATIAL|FOREIGN\\s+KEY|CHECK|EXCLUDE)\\b.*")) {
                column(item);
            } else if (ub.startsWith("PRIMARY")) {
                primaryKey = keyColumns(body.substring(paren + 1, body.lastIndexOf(')')));
            } else if (ub.startsWith("UNIQUE") || ub.startsWith("KEY") || ub.startsWith("INDEX")
                    || ub.startsWith("FULLTEXT") || ub.startsWith("SPATIAL")) {
                boolean unique = ub.startsWith("UNIQUE");
                String head = body.substring(0, paren).trim();
                String[] words = head.split("\\s+");
                String last = words[words.length - 1];
                String idxName = switch (last.toUpperCase(Locale.ROOT)) {
                    case "UNIQUE", "KEY", "INDEX", "FULLTEXT", "SPATIAL" -> null;
                    default -> unquote(last);
                };
                List<String> cols = keyColumns(body.substring(paren + 1, body.lastIndexOf(')')));
                indexes.add(new IndexSchema(idxName == null ? cols.get(0) : idxName, cols, unique));
            } else if (ub.startsWith("FOREIGN KEY") || ub.startsWith("CHECK") || ub.startsWith("EXCLUDE")) {
                // constraints that do not change how a tuple is found
            } else {
                column(item);
            }
        }

        void column(String item) {
            String s = item.trim();
            String colName;
            int rest;
            if (s.charAt(0) == '`' || s.charAt(0) == '"') {
                int end = s.indexOf(s.charAt(0), 1);
                colName = s.substring(1, end);
                rest = end + 1;
            } else {
                int sp = 0;
                while (sp < s.length() && !Character.isWhitespace(s.charAt(sp))) {
                    sp++;
                }
                colName = s.substring(0, sp);
                rest = sp;
            }
            String tail = s.substring(rest).trim();
            Matcher end = TYPE_END.matcher(tail);
            int typeEnd = tail.length();
            // the type may contain parentheses (enum('a','b'), decimal(10,2)): search after them
            int searchFrom = tail.lastIndexOf(')') >= 0 && tail.indexOf('(') >= 0 && tail.indexOf('(') < firstKeyword(tail) ? matchingParen(tail, tail.indexOf('(')) : 0;
            if (end.find(searchFrom)) {
                typeEnd = end.start();
            }
            String type = tail.substring(0, typeEnd).trim().replaceAll("\\s+", " ");
            String up = tail.toUpperCase(Locale.ROOT);
            boolean nullable = !up.contains("NOT NULL") && !up.contains("PRIMARY KEY");
            columns.add(new ColumnSchema(colName, type, nullable));
            if (up.contains("PRIMARY KEY")) {
                primaryKey = List.of(colName);
            } else if (up.matches(".*\\bUNIQUE\\b.*")) {
                indexes.add(new IndexSchema(colName, List.of(colName), true));
            }
        }

        private static int firstKeyword(String tail) {
            Matcher m = TYPE_END.matcher(tail);
            return m.find() ? m.start() : tail.length();
        }

        TableSchema build() {
            return new TableSchema(name, columns, primaryKey, indexes);
        }
    }
}
