package dev.wastecheck.model.ddl;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.Names;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.model.sql.SqlScriptReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.ForeignKeyIndex;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.create.table.NamedConstraint;

/**
 * The tables a script declares, read from its DDL statements: {@code CREATE TABLE} through
 * JSqlParser (Calcite's parser does not read dump DDL: engine-specific column options, table options, COMMENTs), and the few statements pg_dump uses to add
 * keys, sequences, domains and enum types after the fact, by pattern. The one DDL reader of the
 * project: the analyzer feeds it the statements its dump reader streams ({@link #accept}); a trace's
 * schema file, the generator's DDL and tests read whole scripts ({@link #read(Path)}, {@link
 * #parse}).
 */
public final class DdlCatalog {
    private static final Pattern CREATE_TYPE_ENUM =
            Pattern.compile("(?is)create\\s+type\\s+([\\w.\"]+)\\s+as\\s+enum\\s*\\((.*)\\)\\s*");
    private static final Pattern CREATE_DOMAIN = Pattern.compile(
            "(?is)create\\s+domain\\s+([\\w.\"]+)\\s+(?:as\\s+)?(.+?)(\\s+(default|constraint|check|not|null|collate)\\b.*)?");
    private static final Pattern ADD_KEY = Pattern.compile(
            "(?is)alter\\s+table\\s+(?:only\\s+)?([\\w.\"`]+)\\s+add\\s+(?:constraint\\s+([\\w\"`]+)\\s+)?(primary\\s+key|unique)\\s*\\(([^)]*)\\).*");
    private static final Pattern SET_NEXTVAL = Pattern.compile(
            "(?is)alter\\s+table\\s+(?:only\\s+)?([\\w.\"`]+)\\s+alter\\s+column\\s+([\\w\"`]+)\\s+set\\s+default\\s+nextval.*");
    private static final Pattern ADD_IDENTITY = Pattern.compile(
            "(?is)alter\\s+table\\s+(?:only\\s+)?([\\w.\"`]+)\\s+alter\\s+column\\s+([\\w\"`]+)\\s+add\\s+generated.*identity.*");
    private static final Pattern CREATE_INDEX = Pattern.compile(
            "(?is)create\\s+(unique\\s+)?index\\s+(?:concurrently\\s+)?(?:if\\s+not\\s+exists\\s+)?([\\w\"`.]+)\\s+on\\s+(?:only\\s+)?([\\w.\"`\\[\\]]+)(?:\\s+using\\s+(\\w+))?\\s*(\\(.*\\).*)");
    private static final Pattern ATTACH_PARTITION = Pattern.compile(
            "(?is)alter\\s+table\\s+(?:only\\s+)?([\\w.\"`]+)\\s+attach\\s+partition\\s+([\\w.\"`]+).*");

    private final Dialect dialect;
    private final Map<String, TableDef> tables = new LinkedHashMap<>();
    private final Map<String, SqlType> userTypes = new LinkedHashMap<>();
    private final Map<String, String> partitionParent = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();

    public DdlCatalog(Dialect dialect) {
        this.dialect = dialect;
    }

    /** Statements that declare tables, their keys and the types their columns use; others are skipped unread. */
    private static final Pattern STARTS_DDL = Pattern.compile(
            "(?i)^(create\\s+(unlogged\\s+|temporary\\s+|temp\\s+)?table|create\\s+(unique\\s+)?index|alter\\s+table|create\\s+type|create\\s+domain)\\b");

    /**
     * Every declaration of a script file: a schema script or a whole dump, whose rows are passed
     * over without being kept (one pass, memory for the DDL only). The dialect is the
     * one the file's first 64 KB show ({@link Dialect#ofScript}).
     */
    public static DdlCatalog read(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(64 * 1024);
        }
        return read(file, Dialect.ofScript(new String(head, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT)));
    }

    public static DdlCatalog read(Path file, Dialect dialect) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString(), dialect);
        }
    }

    /** Every declaration of a script held in a string, in the dialect its text shows ({@link Dialect#ofScript}). */
    public static DdlCatalog parse(String script) {
        String head = script.length() > 64 * 1024 ? script.substring(0, 64 * 1024) : script;
        return parse(script, Dialect.ofScript(head.toLowerCase(Locale.ROOT)));
    }

    /** Every declaration of a script held in a string. */
    public static DdlCatalog parse(String script, Dialect dialect) {
        try {
            return read(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)), "<ddl>", dialect);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Collects the DDL statements of a script as {@link SqlScriptReader} splits them (the reader
     * analyze loads dumps with: quotes, comments, DELIMITER and COPY blocks as the dump tools
     * write them), passing over rows without keeping them, and hands each statement that
     * declares a table, an index or a type to {@link #accept}.
     */
    private static DdlCatalog read(InputStream in, String file, Dialect dialect) throws IOException {
        DdlCatalog catalog = new DdlCatalog(dialect);
        try (SqlScriptReader reader = new SqlScriptReader(in, file, dialect == Dialect.MYSQL)) {
            for (SqlScriptReader.Statement st = reader.next(); st != null; st = reader.next()) {
                if (st instanceof SqlScriptReader.Other other) {
                    if (STARTS_DDL.matcher(other.text()).find()) {
                        catalog.accept(other.text(), file, other.line());
                    }
                } else if (st instanceof SqlScriptReader.Insert) {
                    reader.skipInsert();
                } else if (st instanceof SqlScriptReader.Copy) {
                    while (reader.nextCopyRow(NO_ROWS)) {
                        // rows are not declarations
                    }
                }
            }
        }
        return catalog;
    }

    private static final SqlScriptReader.ValueSink NO_ROWS = new SqlScriptReader.ValueSink() {
        @Override
        public void value(int index, int kind, byte[] bytes, int off, int len) {}

        @Override
        public void endRow(int count, long line) {}
    };

    /** The tables declared so far, as a schema. */
    public DatabaseSchema schema() {
        return new DatabaseSchema(tables.values());
    }

    public Dialect dialect() {
        return dialect;
    }

    public Map<String, TableDef> tables() {
        return tables;
    }

    public TableDef table(String name) {
        return tables.get(name.toLowerCase(Locale.ROOT));
    }

    public void put(TableDef table) {
        tables.put(table.key(), table);
    }

    public List<String> warnings() {
        return warnings;
    }

    /** Partition table name (lower case) to its parent's name. */
    public Map<String, String> partitionParents() {
        return partitionParent;
    }

    /** Takes in one statement; statements that declare nothing are ignored. */
    public void accept(String text, String file, long line) {
        String head = text.length() > 64 ? text.substring(0, 64) : text;
        String lower = head.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        if (lower.startsWith("create table")
                || lower.startsWith("create unlogged table")
                || lower.startsWith("create temporary table")
                || lower.startsWith("create temp table")) {
            createTable(text, file, line);
        } else if (lower.startsWith("create type")) {
            // a live catalog's statement ends in its semicolon, a dump's split statement does not
            Matcher m = CREATE_TYPE_ENUM.matcher(text.strip().replaceFirst(";$", ""));
            if (m.matches()) {
                List<String> values = TypeParser.quoted(m.group(2));
                userTypes.put(
                        Names.simpleName(m.group(1)),
                        new SqlType("enum", TypeFamily.ENUM, 0, false, -1, -1, -1, values));
            }
        } else if (lower.startsWith("create domain")) {
            Matcher m = CREATE_DOMAIN.matcher(text.strip().replaceFirst(";$", ""));
            if (m.matches()) {
                userTypes.put(Names.simpleName(m.group(1)), TypeParser.parse(m.group(2), dialect, userTypes));
            }
        } else if (lower.startsWith("alter table")) {
            alterTable(text);
        } else if (lower.startsWith("alter sequence")) {
            Matcher m = OWNED_BY.matcher(text);
            if (m.matches()) {
                sequenceOwners.put(
                        Names.simpleName(m.group(1)).toLowerCase(Locale.ROOT),
                        Names.simpleName(m.group(2)) + "." + Names.unquote(m.group(3)));
            }
        } else if (lower.startsWith("select") && lower.contains("setval")) {
            Matcher m = SETVAL.matcher(text);
            if (m.find()) {
                // setval(seq, v, true): the next value is v + 1; with false, v itself.
                BigInteger v = new BigInteger(m.group(2));
                boolean called = m.group(3) == null || m.group(3).equalsIgnoreCase("true");
                sequenceValues.put(
                        Names.simpleName(m.group(1)).toLowerCase(Locale.ROOT), called ? v.add(BigInteger.ONE) : v);
            }
        } else if (lower.startsWith("create index") || lower.startsWith("create unique index")) {
            Matcher m = CREATE_INDEX.matcher(text);
            if (m.matches()) {
                TableDef t = table(Names.simpleName(m.group(3)));
                if (t != null) {
                    t.addIndex(createIndex(
                            Names.simpleName(m.group(2)), m.group(1) != null, m.group(4), m.group(5), text.strip()));
                }
                ViewDef v = views.get(Names.simpleName(m.group(3)).toLowerCase(Locale.ROOT));
                if (v != null) {
                    v.indexes().add(text.strip());
                }
            }
        } else if (lower.matches("create (or replace )?(materialized |recursive |temp |temporary )?view .*")) {
            Matcher m = CREATE_VIEW.matcher(text);
            if (m.lookingAt()) {
                String name = Names.simpleName(m.group(2));
                views.put(
                        name.toLowerCase(Locale.ROOT),
                        new ViewDef(
                                Names.unquote(m.group(2).strip()),
                                m.group(1) != null,
                                text.strip(),
                                new ArrayList<>()));
            }
        }
    }

    /**
     * A view as the dump created it, for a migration that must drop and re-create the views over
     * a column whose type it changes (PostgreSQL refuses to change such a column otherwise).
     *
     * @param name    as the dump wrote it, schema included
     * @param text    the CREATE statement, as written
     * @param indexes CREATE INDEX statements on it (a materialized view's), as written
     */
    public record ViewDef(String name, boolean materialized, String text, List<String> indexes) {}

    private static final Pattern CREATE_VIEW = Pattern.compile(
            "(?is)create\\s+(?:or\\s+replace\\s+)?(?:(materialized)\\s+|recursive\\s+|temp\\s+|temporary\\s+)?view\\s+(?:if\\s+not\\s+exists\\s+)?([\\w.\"`]+)");

    private final Map<String, ViewDef> views = new LinkedHashMap<>();

    /**
     * A declared foreign key: {@code table(columns) REFERENCES refTable(refColumns)}.
     *
     * @param name    the constraint's name as the DDL gave it, or null when it gave none (the
     *                database then names it: MySQL and MariaDB {@code table_ibfk_N}, N counting the table's unnamed keys)
     * @param actions its {@code ON DELETE ...} and {@code ON UPDATE ...} clauses as written, or ""
     */
    public record ForeignKey(
            String table, List<String> columns, String refTable, List<String> refColumns, String name, String actions) {
        public ForeignKey(String table, List<String> columns, String refTable, List<String> refColumns) {
            this(table, columns, refTable, refColumns, null, "");
        }

        /** The ON DELETE / ON UPDATE clauses of a foreign key's text, in its order. */
        public static String actionsOf(String text) {
            Matcher m = ACTIONS.matcher(text);
            List<String> out = new ArrayList<>();
            while (m.find()) {
                out.add(m.group().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT));
            }
            return String.join(" ", out);
        }

        private static final Pattern ACTIONS = Pattern.compile(
                "(?i)\\bon\\s+(?:delete|update)\\s+(?:cascade|restrict|no\\s+action|set\\s+null|set\\s+default)");
    }

    private static final Pattern ADD_FOREIGN_KEY = Pattern.compile(
            "(?is)alter\\s+table\\s+(?:only\\s+)?([\\w.\"`]+)\\s+add\\s+(?:constraint\\s+([\\w\"`]+)\\s+)?foreign\\s+key\\s*\\(([^)]*)\\)"
                    + "\\s*references\\s+([\\w.\"`]+)\\s*\\(([^)]*)\\).*");
    private static final Pattern PARTITION_BY = Pattern.compile("(?is)\\)\\s*partition\\s+by\\s+\\w+\\s*\\(");
    private static final Pattern COLUMN_REFERENCES =
            Pattern.compile("(?i)\\breferences\\s+([\\w.\"`]+)\\s*(?:\\(([^)]*)\\))?");
    private static final Pattern SEQUENCE_NAME = Pattern.compile("(?i)\\bsequence\\s+name\\s+([\\w.\"]+)");
    private static final Pattern OWNED_BY = Pattern.compile(
            "(?is)alter\\s+sequence\\s+([\\w.\"]+)\\s+owned\\s+by\\s+([\\w.\"]+)\\.([\\w\"]+)\\s*;?\\s*");
    private static final Pattern CHILD_NAME = Pattern.compile(
            "(?is)\\s*create\\s+(?:unlogged\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?([\\w.\"]+)\\s*\\((\\s*\\))?");
    private static final Pattern INHERITS = Pattern.compile("(?is)\\)\\s*inherits\\s*\\(([^)]*)\\)");
    private static final Pattern TABLE_AUTO_INCREMENT = Pattern.compile("(?i)\\bauto_increment\\s*=\\s*(\\d+)");
    private static final Pattern NEXTVAL = Pattern.compile("(?i)nextval\\s*\\(\\s*'([^']+)'");
    private static final Pattern SETVAL =
            Pattern.compile("(?i)setval\\s*\\(\\s*'([^']+)'\\s*,\\s*(\\d+)\\s*(?:,\\s*(true|false)\\s*)?\\)");

    private final List<ForeignKey> foreignKeys = new ArrayList<>();
    private static final Pattern INDEX_PREFIX = Pattern.compile("\\((\\d+)\\)$");
    private static final Pattern TABLE_ENGINE = Pattern.compile("(?i)\\bengine=`?(\\w+)");
    private static final Pattern TABLE_ROW_FORMAT = Pattern.compile("(?i)\\brow_format=`?(\\w+)");
    private final Map<String, String> engines = new HashMap<>();
    private final Map<String, String> rowFormats = new HashMap<>();

    /** MySQL: the storage engine a table's CREATE TABLE named ({@code InnoDB}, {@code MyISAM}), or null when it named none. */
    public String engineOf(String table) {
        return engines.get(table.toLowerCase(Locale.ROOT));
    }

    /** MySQL: the ROW_FORMAT a table's CREATE TABLE named ({@code COMPACT}, {@code DYNAMIC}), upper case, or null. */
    public String rowFormatOf(String table) {
        return rowFormats.get(table.toLowerCase(Locale.ROOT));
    }

    private final Map<String, String> schemas = new HashMap<>();

    /** The schema a table's CREATE TABLE named ({@code public} in a pg_dump), or null when it named none. */
    public String schemaOf(String table) {
        return schemas.get(table.toLowerCase(Locale.ROOT));
    }

    private final Map<String, List<String>> partitionKeys = new HashMap<>();
    private final Map<String, BigInteger> tableCounters = new HashMap<>();
    private final Map<String, String> sequenceOwners = new HashMap<>();
    private final Map<String, BigInteger> sequenceValues = new HashMap<>();

    public List<ForeignKey> foreignKeys() {
        return List.copyOf(foreignKeys);
    }

    /** The columns a partitioned table is partitioned by, keyed by lower-case table name. */
    public Map<String, List<String>> partitionKeys() {
        return Collections.unmodifiableMap(partitionKeys);
    }

    /**
     * The next value each auto-increment counter would hand out, keyed by lower-case
     * {@code table.column}: MySQL's AUTO_INCREMENT=N table option, or a PostgreSQL sequence's
     * setval. It can lie far beyond the column's largest value (deleted rows).
     */
    public Map<String, BigInteger> counters() {
        Map<String, BigInteger> out = new HashMap<>();
        for (Map.Entry<String, BigInteger> e : tableCounters.entrySet()) {
            TableDef t = table(e.getKey());
            if (t != null) {
                t.columns().stream()
                        .filter(ColumnDef::autoIncrement)
                        .findFirst()
                        .ifPresent(c -> out.put((t.name() + "." + c.name()).toLowerCase(Locale.ROOT), e.getValue()));
            }
        }
        for (Map.Entry<String, BigInteger> e : sequenceValues.entrySet()) {
            String owner = sequenceOwners.get(e.getKey());
            if (owner != null) {
                out.merge(owner.toLowerCase(Locale.ROOT), e.getValue(), BigInteger::max);
            }
        }
        return out;
    }

    /** The views the dump created, in its order. */
    public List<ViewDef> views() {
        return List.copyOf(views.values());
    }

    private void alterTable(String text) {
        Matcher m = ADD_KEY.matcher(text);
        if (m.matches()) {
            TableDef t = table(Names.simpleName(m.group(1)));
            if (t != null) {
                List<String> cols = names(m.group(4));
                boolean primary = m.group(3).toLowerCase(Locale.ROOT).startsWith("primary");
                if (primary) {
                    t.setPrimaryKey(cols);
                }
                t.addIndex(new IndexDef(
                        m.group(2) == null ? (primary ? "PRIMARY" : "unique") : Names.unquote(m.group(2)), cols, true));
            }
            return;
        }
        Matcher f = ADD_FOREIGN_KEY.matcher(text);
        if (f.matches()) {
            foreignKeys.add(new ForeignKey(
                    Names.simpleName(f.group(1)),
                    names(f.group(3)),
                    Names.simpleName(f.group(4)),
                    names(f.group(5)),
                    f.group(2) == null ? null : Names.unquote(f.group(2)),
                    ForeignKey.actionsOf(text)));
            return;
        }
        Matcher seq = NEXTVAL.matcher(text);
        Matcher owner = SET_NEXTVAL.matcher(text);
        if (owner.matches() && seq.find()) {
            sequenceOwners.put(
                    Names.simpleName(seq.group(1)).toLowerCase(Locale.ROOT),
                    Names.simpleName(owner.group(1)) + "." + Names.unquote(owner.group(2)));
        }
        Matcher s = SET_NEXTVAL.matcher(text);
        if (!s.matches()) {
            s = ADD_IDENTITY.matcher(text);
            if (!s.matches()) {
                s = null;
            }
        }
        if (s != null) {
            markAutoIncrement(Names.simpleName(s.group(1)), Names.unquote(s.group(2)));
            Matcher named = SEQUENCE_NAME.matcher(text);
            if (named.find()) { // GENERATED ... AS IDENTITY (SEQUENCE NAME x ...): its setval is the column's counter
                sequenceOwners.put(
                        Names.simpleName(named.group(1)).toLowerCase(Locale.ROOT),
                        Names.simpleName(s.group(1)) + "." + Names.unquote(s.group(2)));
            }
            return;
        }
        Matcher p = ATTACH_PARTITION.matcher(text);
        if (p.matches()) {
            partitionParent.put(Names.simpleName(p.group(2)).toLowerCase(Locale.ROOT), Names.simpleName(p.group(1)));
        }
    }

    private void markAutoIncrement(String tableName, String column) {
        TableDef t = table(tableName);
        if (t == null) {
            return;
        }
        List<ColumnDef> cols = new ArrayList<>(t.columns());
        int i = t.columnIndex(column);
        if (i < 0) {
            return;
        }
        ColumnDef c = cols.get(i);
        cols.set(i, new ColumnDef(c.name(), c.type(), c.nullable(), true, null, c.clauses()));
        put(new TableDef(t.name(), cols, t.primaryKey(), t.indexes(), t.charset(), t.origin(), t.ddlKnown()));
    }

    private static final Pattern TABLE_NAME = Pattern.compile(
            "(?is)(create\\s+(?:unlogged\\s+|temporary\\s+|temp\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?)([\\w$]+)(\\s*\\()");

    /**
     * A quoted name holding a line break or another control character ({@code "line\nbreak"}),
     * which JSqlParser's tokenizer does not take: such names are read under a placeholder and
     * put back afterwards, so the table keeps its exact name and columns.
     */
    private void createTable(String text, String file, long line) {
        Map<String, String> originals = new HashMap<>();
        String masked = maskOddNames(text, originals);
        if (originals.isEmpty()) {
            createTableAsWritten(text, file, line);
            return;
        }
        Set<String> before = new HashSet<>(tables.keySet());
        createTableAsWritten(masked, file, line);
        for (TableDef t : new ArrayList<>(tables.values())) {
            if (before.contains(t.key())) {
                continue;
            }
            UnaryOperator<String> back = n -> originals.getOrDefault(n, n);
            List<ColumnDef> cols = new ArrayList<>();
            for (ColumnDef c : t.columns()) {
                cols.add(new ColumnDef(
                        back.apply(c.name()),
                        c.type(),
                        c.nullable(),
                        c.autoIncrement(),
                        c.defaultValue(),
                        c.clauses()));
            }
            List<IndexDef> idx = new ArrayList<>();
            for (IndexDef i : t.indexes()) {
                idx.add(i.renamed(back));
            }
            tables.remove(t.key());
            put(new TableDef(
                    back.apply(t.name()),
                    cols,
                    t.primaryKey().stream().map(back).toList(),
                    idx,
                    t.charset(),
                    t.origin(),
                    t.ddlKnown()));
        }
    }

    private static String maskOddNames(String text, Map<String, String> originals) {
        StringBuilder out = new StringBuilder(text.length());
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                int e = i + 1;
                while (e < n && !(text.charAt(e) == '\'' && (e + 1 >= n || text.charAt(e + 1) != '\''))) {
                    e += text.charAt(e) == '\'' ? 2 : 1;
                }
                out.append(text, i, Math.min(n, e + 1));
                i = e;
                continue;
            }
            if (c != '"' && c != '`') {
                out.append(c);
                continue;
            }
            StringBuilder name = new StringBuilder();
            int e = i + 1;
            while (e < n) {
                char d = text.charAt(e);
                if (d == c) {
                    if (e + 1 < n && text.charAt(e + 1) == c) {
                        name.append(c);
                        e += 2;
                        continue;
                    }
                    break;
                }
                name.append(d);
                e++;
            }
            boolean odd = name.chars().anyMatch(ch -> ch < 32 || ch == 127);
            if (odd && e < n) {
                String placeholder = "wc_name_" + originals.size();
                originals.put(placeholder, name.toString());
                out.append(c).append(placeholder).append(c);
            } else {
                out.append(text, i, Math.min(n, e + 1));
            }
            i = e;
        }
        return out.toString();
    }

    private void createTableAsWritten(String text, String file, long line) {
        Matcher inherits = INHERITS.matcher(text);
        if (inherits.find()) {
            // PostgreSQL inheritance: the child holds the parent's columns, then its own. An ALTER
            // of the parent's column changes the children's, so they group like partitions.
            String parentName = Names.simpleName(names(inherits.group(1)).get(0));
            TableDef parent = table(parentName);
            String own = text.substring(0, inherits.start() + 1) + text.substring(inherits.end());
            Matcher head = CHILD_NAME.matcher(own);
            String child = head.lookingAt() ? Names.simpleName(head.group(1)) : null;
            if (child != null && head.group(2) != null && parent != null) {
                put(new TableDef(
                        child, parent.columns(), List.of(), List.of(), parent.charset(), file + ":" + line, true));
                partitionParent.put(child.toLowerCase(Locale.ROOT), parent.name());
                return;
            }
            if (parent != null) {
                createTable(own, file, line);
                TableDef made = child == null ? null : table(child);
                if (made != null) {
                    List<ColumnDef> all = new ArrayList<>(parent.columns());
                    made.columns().stream()
                            .filter(c -> parent.column(c.name()).isEmpty())
                            .forEach(all::add);
                    put(new TableDef(
                            made.name(), all, made.primaryKey(), made.indexes(), made.charset(), made.origin(), true));
                    partitionParent.put(made.name().toLowerCase(Locale.ROOT), parent.name());
                }
                return;
            }
            text = own;
        }
        CreateTable ct;
        try {
            ct = parseCreateTable(text);
        } catch (JSQLParserException | RuntimeException e) {
            // A table named like a keyword (MediaWiki's `file`) trips the parser: quote it and retry.
            Matcher m = TABLE_NAME.matcher(text);
            String quote = dialect == Dialect.MYSQL ? "`" : "\"";
            try {
                if (!m.lookingAt()) {
                    throw e;
                }
                ct = parseCreateTable(m.replaceFirst("$1" + quote + "$2" + quote + "$3"));
            } catch (JSQLParserException | RuntimeException e2) {
                String reason = e.getMessage() == null
                        ? e.toString()
                        : e.getMessage().lines().findFirst().orElse("");
                warnings.add(file + ":" + line + ": could not read CREATE TABLE (" + reason
                        + "); its rows, if any, are profiled as text");
                return;
            }
        }
        if (ct == null) {
            warnings.add(
                    file + ":" + line + ": a CREATE TABLE without columns (CREATE TABLE ... AS or LIKE) was skipped");
            return;
        }
        String name = Names.simpleName(ct.getTable().getName());
        if (ct.getTable().getSchemaName() != null) {
            schemas.put(
                    name.toLowerCase(Locale.ROOT), Names.unquote(ct.getTable().getSchemaName()));
        }
        Matcher pkey = PARTITION_BY.matcher(text);
        if (pkey.find()) {
            // A key may be an expression (lower((kind)::text)): every name in it counts.
            int depth = 1;
            int end = pkey.end();
            while (end < text.length() && depth > 0) {
                char ch = text.charAt(end++);
                depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
            }
            List<String> names = new ArrayList<>();
            Matcher id = Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_$]*|\"[^\"]+\"")
                    .matcher(text.substring(pkey.end(), Math.max(pkey.end(), end - 1)));
            while (id.find()) {
                names.add(Names.unquote(id.group()));
            }
            partitionKeys.put(name.toLowerCase(Locale.ROOT), names);
        }
        if (ct.getTableOptionsStrings() != null) { // AUTO_INCREMENT=N, as the parser split the table options
            Matcher counter = TABLE_AUTO_INCREMENT.matcher(
                    String.join(" ", ct.getTableOptionsStrings()).replaceAll("\\s*=\\s*", "="));
            if (counter.find()) {
                tableCounters.put(name.toLowerCase(Locale.ROOT), new BigInteger(counter.group(1)));
            }
        }
        List<ColumnDef> columns = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        List<IndexDef> indexes = new ArrayList<>();
        for (ColumnDefinition cd : ct.getColumnDefinitions()) {
            String col = Names.unquote(cd.getColumnName());
            List<String> specs = cd.getColumnSpecs() == null ? List.of() : cd.getColumnSpecs();
            String specText = String.join(" ", specs).toLowerCase(Locale.ROOT);
            String typeText = typeText(cd.getColDataType(), specText);
            SqlType type;
            try {
                type = TypeParser.parse(typeText, dialect, userTypes);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(
                        file + ":" + line + ": column " + col + " of CREATE TABLE: " + e.getMessage());
            }
            // JSqlParser takes any word for a type or a clause: a typo would pass unseen (ColumnClauses)
            ColumnClauses.checkType(col, typeText, type, dialect, userTypes.keySet(), text, file, line);
            ColumnClauses.check(col, specs, text, file, line);
            boolean notNull = specText.matches(".*\\bnot null\\b.*") || specText.contains("primary key");
            boolean auto = specText.contains("auto_increment")
                    || specText.contains("autoincrement")
                    || specText.contains("nextval")
                    || specText.contains("identity")
                    || typeText.toLowerCase(Locale.ROOT).contains("serial");
            if (specText.contains("primary key")) {
                pk.add(col);
            }
            if (specText.matches(".*\\bunique\\b.*")) {
                indexes.add(new IndexDef(col, List.of(col), true));
            }
            columns.add(new ColumnDef(
                    col,
                    type,
                    !notNull,
                    auto,
                    auto ? null : literalDefault(String.join(" ", specs)),
                    String.join(" ", specs)));
            Matcher ref = COLUMN_REFERENCES.matcher(String.join(" ", specs));
            if (ref.find()) {
                foreignKeys.add(new ForeignKey(
                        name,
                        List.of(col),
                        Names.simpleName(ref.group(1)),
                        ref.group(2) == null ? List.of() : names(ref.group(2))));
            }
            Matcher seq = NEXTVAL.matcher(String.join(" ", specs));
            if (seq.find()) {
                sequenceOwners.put(Names.simpleName(seq.group(1)).toLowerCase(Locale.ROOT), name + "." + col);
            }
        }
        if (ct.getIndexes() != null) {
            for (Index idx : ct.getIndexes()) {
                String kind = idx.getType() == null ? "" : idx.getType().toLowerCase(Locale.ROOT);
                List<String> cols = new ArrayList<>();
                List<Integer> prefixes = new ArrayList<>();
                for (String c : idx.getColumnsNames()) {
                    Matcher prefix = INDEX_PREFIX.matcher(c.trim());
                    prefixes.add(prefix.find() ? Integer.parseInt(prefix.group(1)) : 0);
                    cols.add(Names.unquote(c.replaceAll("\\(\\d+\\)$", "").trim()));
                }
                if (kind.contains("foreign")) {
                    if (idx instanceof ForeignKeyIndex fk && fk.getTable() != null) {
                        List<String> refs = new ArrayList<>();
                        if (fk.getReferencedColumnNames() != null) {
                            fk.getReferencedColumnNames().forEach(c -> refs.add(Names.unquote(c.trim())));
                        }
                        String given = idx.getName() == null ? null : Names.unquote(idx.getName());
                        foreignKeys.add(new ForeignKey(
                                name,
                                cols,
                                Names.simpleName(fk.getTable().getName()),
                                refs,
                                given,
                                ForeignKey.actionsOf(idx.toString())));
                    }
                    continue;
                }
                if (kind.contains("primary")) {
                    pk.clear();
                    pk.addAll(cols);
                    indexes.add(new IndexDef("PRIMARY", cols, true, prefixes, IndexDef.Kind.BTREE));
                } else {
                    // MySQL's UNIQUE KEY `name` (...) arrives as a NamedConstraint whose name is its index name.
                    String given = idx.getName() != null
                            ? idx.getName()
                            : idx instanceof NamedConstraint nc ? nc.getIndexName() : null;
                    String idxName = given == null ? String.join("_", cols) : Names.unquote(given);
                    indexes.add(new IndexDef(
                            idxName,
                            cols,
                            kind.contains("unique"),
                            prefixes,
                            kind.contains("fulltext")
                                    ? IndexDef.Kind.FULLTEXT
                                    : kind.contains("spatial") ? IndexDef.Kind.SPATIAL : IndexDef.Kind.BTREE));
                }
            }
        }
        String charset = null;
        List<String> opts = ct.getTableOptionsStrings();
        if (opts != null) {
            Matcher engine = TABLE_ENGINE.matcher(String.join(" ", opts).replaceAll("\\s*=\\s*", "="));
            if (engine.find()) {
                engines.put(name.toLowerCase(Locale.ROOT), engine.group(1));
            }
            Matcher format = TABLE_ROW_FORMAT.matcher(String.join(" ", opts).replaceAll("\\s*=\\s*", "="));
            if (format.find()) {
                rowFormats.put(name.toLowerCase(Locale.ROOT), format.group(1).toUpperCase(Locale.ROOT));
            }
            for (int i = 0; i < opts.size(); i++) {
                String o = opts.get(i).toLowerCase(Locale.ROOT);
                if (o.startsWith("charset=") || o.startsWith("character")) {
                    charset = o.contains("=") ? o.substring(o.indexOf('=') + 1) : null;
                } else if ((o.equals("charset") || o.equals("set")) && i + 1 < opts.size()) {
                    String v = opts.get(i + 1);
                    if (v.equals("=") && i + 2 < opts.size()) {
                        v = opts.get(i + 2);
                    }
                    charset = v.toLowerCase(Locale.ROOT);
                }
            }
        }
        if (ct.getPartitionOf() != null) {
            partitionParent.put(
                    name.toLowerCase(Locale.ROOT),
                    Names.simpleName(ct.getPartitionOf().getName()));
        }
        put(new TableDef(name, columns, pk, indexes, charset, file + ":" + line, true));
    }

    private static final Pattern BRACKET_NAME = Pattern.compile("\\[[A-Za-z_]");

    /**
     * The threads JSqlParser's timeout runs each parse on. Its plain {@code parse} makes and shuts
     * down a thread per statement (two thirds of the time of a short CREATE TABLE); a cached pool
     * reuses idle threads yet still starts a new one when a parse that overran its timeout has
     * not yet noticed it was stopped, so one runaway statement never holds up the next.
     */
    private static final ExecutorService PARSER_THREADS = Executors.newCachedThreadPool(task -> {
        Thread t = new Thread(task, "wastecheck-ddl-parser");
        t.setDaemon(true);
        return t;
    });

    private CreateTable parseCreateTable(String sql) throws JSQLParserException {
        // [name] quoting (SQL Server, Access) only when a bracket opens a name: with it on, the
        // parser reads PostgreSQL's text[] as plain text and an array column lost its [].
        boolean brackets = BRACKET_NAME.matcher(sql).find();
        Statement st = CCJSqlParserUtil.parse(
                sql,
                PARSER_THREADS,
                p -> p.withSquareBracketQuotation(brackets)
                        .withBackslashEscapeCharacter(dialect == Dialect.MYSQL)
                        .withTimeOut(20_000));
        if (!(st instanceof CreateTable ct)) {
            throw new JSQLParserException("not read as a CREATE TABLE");
        }
        return ct.getColumnDefinitions() == null ? null : ct;
    }

    private static String typeText(ColDataType t, String specText) {
        StringBuilder sb = new StringBuilder(t.getDataType());
        List<String> args = t.getArgumentsStringList();
        if (args != null && !args.isEmpty()) {
            sb.append('(').append(String.join(",", args)).append(')');
        }
        if (t.getArrayData() != null && !t.getArrayData().isEmpty()) {
            sb.append("[]");
        }
        String typeSpec = t.toString().toLowerCase(Locale.ROOT);
        if (typeSpec.contains("unsigned")
                || specText.matches(".*\\bunsigned\\b.*")
                || (t.getSignedness() != null && t.getSignedness().toString().equalsIgnoreCase("unsigned"))) {
            sb.append(" unsigned");
        }
        if (t.isZerofill() || specText.contains("zerofill")) {
            sb.append(" zerofill");
        }
        return sb.toString()
                .replaceAll("\\s*\\(\\s*", "(")
                .replaceAll("\\s*,\\s*", ",")
                .replaceAll("\\s*\\)", ")");
    }

    private static final Pattern DEFAULT_LITERAL = Pattern.compile(
            "(?is).*?\\bdefault\\s+(?:'((?:[^'\\\\]|''|\\\\.)*)'|([-+]?\\d+(?:\\.\\d+)?)|(null))(?:\\s*::\\s*[\\w .]+)?(?:\\s.*|$)");

    /** The DEFAULT of a column when it is a literal; rows that omit the column get it. */
    static String literalDefault(String specs) {
        Matcher m = DEFAULT_LITERAL.matcher(specs);
        if (!m.matches()) {
            return null;
        }
        if (m.group(1) != null) {
            return m.group(1).replace("''", "'");
        }
        return m.group(2);
    }

    /**
     * A {@code CREATE INDEX}'s index from what follows the table name: its method ({@code USING
     * gin}, null for the default B-tree), then {@code (key parts) [INCLUDE (...)] [WITH (...)]
     * [TABLESPACE t] [WHERE condition]}. Key parts split at top-level commas, so an expression
     * ({@code coalesce(a, b)}) stays one part.
     */
    private static IndexDef createIndex(String name, boolean unique, String method, String rest, String written) {
        int keysEnd = closing(rest, 0);
        List<String> keys = names(topLevel(rest.substring(1, keysEnd)));
        String tail = rest.substring(keysEnd + 1);
        List<String> include = List.of();
        Matcher inc = Pattern.compile("(?is)^\\s*include\\s*\\(").matcher(tail);
        if (inc.find()) {
            int open = inc.end() - 1;
            int close = closing(tail, open);
            include = names(topLevel(tail.substring(open + 1, close)));
            tail = tail.substring(close + 1);
        }
        Matcher where = Pattern.compile("(?is)\\bwhere\\s+(.*?)\\s*;?\\s*$").matcher(tail);
        String predicate = where.find() ? where.group(1).strip() : null;
        String definition = written.endsWith(";")
                ? written.substring(0, written.length() - 1).strip()
                : written;
        return new IndexDef(name, keys, unique, null, IndexDef.Kind.BTREE, method, predicate, include, definition);
    }

    /** The index of the parenthesis that closes the one at {@code open}, quotes respected; the end when none. */
    private static int closing(String s, int open) {
        int depth = 0;
        char quote = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return s.length() - 1;
    }

    /** {@code list} with the commas inside parentheses replaced, so that a split at commas keeps expressions whole. */
    private static String topLevel(String list) {
        StringBuilder out = new StringBuilder(list.length());
        int depth = 0;
        for (char c : list.toCharArray()) {
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            out.append(c == ',' && depth > 0 ? '\u0001' : c);
        }
        return out.toString();
    }

    static List<String> names(String list) {
        List<String> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String p = part.trim()
                    .replaceAll("(?i)\\s+(asc|desc)$", "")
                    .replaceAll("\\(\\d+\\)$", "")
                    .trim();
            if (!p.isEmpty()) {
                out.add(Names.unquote(p.replace('\u0001', ',')));
            }
        }
        return out;
    }
}
