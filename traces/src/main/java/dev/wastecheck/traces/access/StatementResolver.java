package dev.wastecheck.traces.access;

import com.google.common.collect.BoundType;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.traces.access.ShapeTemplate.TableTemplate;
import dev.wastecheck.traces.access.ShapeTemplate.ValueSource;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

/**
 * Resolves a statement shape with Calcite, asking the plan rather than parsing strings: the schema is
 * registered as Calcite tables, the statement is validated with identifier expansion and converted
 * to a relational plan, and then the plan is asked, never the SQL text: {@link
 * RelMetadataQuery#getColumnOrigins} for what each output and each condition input is,
 * {@link RelOptUtil.InputFinder} for the columns of Filter and Join conditions, {@link
 * TableModify#getUpdateColumnList()} for the columns an UPDATE writes.
 *
 * <p>Tables are accounted per table, not per occurrence: a self-join's two sides merge.
 */
final class StatementResolver {
    private final DatabaseSchema schema;
    private final FrameworkConfig backtick;
    private final FrameworkConfig doubleQuote;

    StatementResolver(DatabaseSchema schema) {
        this.schema = schema;
        var root = CalciteCatalog.register(schema);
        this.backtick = config(root, Quoting.BACK_TICK);
        this.doubleQuote = config(root, Quoting.DOUBLE_QUOTE);
    }

    private static FrameworkConfig config(SchemaPlus root, Quoting quoting) {
        SqlParser.Config parser = SqlParser.config()
                .withQuoting(quoting)
                .withQuotedCasing(Casing.UNCHANGED)
                .withUnquotedCasing(Casing.UNCHANGED)
                .withCaseSensitive(false)
                .withConformance(SqlConformanceEnum.LENIENT);
        return Frameworks.newConfigBuilder()
                .defaultSchema(root)
                .parserConfig(parser)
                .sqlValidatorConfig(SqlValidator.Config.DEFAULT
                        .withIdentifierExpansion(true)
                        .withConformance(SqlConformanceEnum.LENIENT))
                .sqlToRelConverterConfig(SqlToRelConverter.config()
                        .withInSubQueryThreshold(Integer.MAX_VALUE)
                        .withExpand(true))
                .operatorTable(SqlOperatorTables.chain(
                        LenientFunctions.table(),
                        SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(
                                EnumSet.of(SqlLibrary.STANDARD, SqlLibrary.MYSQL, SqlLibrary.POSTGRESQL))))
                .build();
    }

    ShapeTemplate resolve(String shape, char quote) throws UnresolvedStatementException {
        Planner planner = Frameworks.getPlanner(quote == '`' ? backtick : doubleQuote);
        try {
            SqlNode parsed = planner.parse(shape);
            InsertShape insert = parsed instanceof SqlInsert ins ? insertShape(ins) : null;
            UpdateShape update = parsed instanceof SqlUpdate upd ? updateShape(upd) : null;
            SqlNode validated = planner.validate(parsed);
            RelRoot root = planner.rel(validated);
            return new PlanReader(root, insert, update).read();
        } catch (UnresolvedStatementException e) {
            throw e;
        } catch (Exception | AssertionError e) {
            throw new UnresolvedStatementException(reason(e));
        } finally {
            planner.close();
        }
    }

    private static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null
                && t.getCause() != t
                && (t.getMessage() == null || t.getMessage().startsWith("org.apache"))) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        if (t.getCause() != null && t.getCause().getMessage() != null && m.startsWith("From line")) {
            m = m + ": " + t.getCause().getMessage();
        }
        m = m.lines().findFirst().orElse(m);
        return m.length() > 160 ? m.substring(0, 160) + "..." : m;
    }

    // ---- INSERT ... VALUES and UPDATE ... SET: values are read from the statement before validation rewrites it

    private record InsertShape(
            String table, List<Map<String, ValueSource>> rows, List<String> keyColumns, String index) {}

    private record UpdateShape(String table, Map<String, ValueSource> set) {}

    private InsertShape insertShape(SqlInsert ins) throws UnresolvedStatementException {
        SqlIdentifier target = (SqlIdentifier)
                (ins.getTargetTable() instanceof SqlCall c && c.getKind() == SqlKind.AS
                        ? c.operand(0)
                        : ins.getTargetTable());
        String name = target.names.get(target.names.size() - 1);
        TableDef t = schema.table(name)
                .orElseThrow(() -> new UnresolvedStatementException("Object '" + name + "' not found"));
        List<String> columns = new ArrayList<>();
        SqlNodeList list = ins.getTargetColumnList();
        if (list == null) {
            columns.addAll(t.columnNames());
        } else {
            for (SqlNode n : list) {
                SqlIdentifier id = (SqlIdentifier) n;
                columns.add(canonicalColumn(t, id.names.get(id.names.size() - 1)));
            }
        }
        IndexDef key = t.uniqueKeys().isEmpty() ? null : t.uniqueKeys().get(0);
        List<String> keyColumns = key == null ? List.of() : key.columns();
        List<Map<String, ValueSource>> rows = new ArrayList<>();
        SqlNode source = ins.getSource();
        if (source instanceof SqlBasicCall values && values.getKind() == SqlKind.VALUES) {
            for (SqlNode rowNode : values.getOperandList()) {
                List<SqlNode> cells = rowNode instanceof SqlCall row && row.getKind() == SqlKind.ROW
                        ? row.getOperandList()
                        : List.of(rowNode);
                Map<String, ValueSource> row = new LinkedHashMap<>();
                for (int i = 0; i < columns.size() && i < cells.size(); i++) {
                    ValueSource v = valueSource(cells.get(i));
                    if (v != null) {
                        row.put(columns.get(i), v);
                    }
                }
                rows.add(row);
            }
        }
        return new InsertShape(t.name(), rows, keyColumns, key == null ? null : key.name());
    }

    /** The SET columns of a single-table UPDATE whose right-hand side is a literal, a parameter or NULL; null for other forms. */
    private UpdateShape updateShape(SqlUpdate upd) {
        SqlNode targetNode = upd.getTargetTable() instanceof SqlCall c && c.getKind() == SqlKind.AS
                ? c.operand(0)
                : upd.getTargetTable();
        if (!(targetNode instanceof SqlIdentifier target)) {
            return null;
        }
        TableDef t = schema.table(target.names.get(target.names.size() - 1)).orElse(null);
        if (t == null || upd.getSourceExpressionList() == null) {
            return null;
        }
        Map<String, ValueSource> set = new LinkedHashMap<>();
        SqlNodeList columns = upd.getTargetColumnList();
        SqlNodeList expressions = upd.getSourceExpressionList();
        for (int i = 0; i < columns.size() && i < expressions.size(); i++) {
            if (columns.get(i) instanceof SqlIdentifier id) {
                ValueSource v = valueSource(expressions.get(i));
                if (v != null) {
                    set.put(canonicalColumn(t, id.names.get(id.names.size() - 1)), v);
                }
            }
        }
        return new UpdateShape(t.name(), set);
    }

    /** Where a VALUES cell or SET expression's value comes from, or null when it is an expression. */
    private static ValueSource valueSource(SqlNode cell) {
        while (cell instanceof SqlCall cast && cast.getKind() == SqlKind.CAST) {
            cell = cast.operand(0);
        }
        if (cell instanceof SqlDynamicParam p) {
            return new ValueSource(p.getIndex(), null);
        }
        if (cell instanceof SqlLiteral lit) {
            return lit.getTypeName() == SqlTypeName.NULL ? ValueSource.NULL : new ValueSource(-1, lit.toValue());
        }
        return null;
    }

    private static String canonicalColumn(TableDef t, String name) {
        int i = indexOfIgnoreCase(t.columnNames(), name);
        return i >= 0 ? t.columnNames().get(i) : name;
    }

    private static int indexOfIgnoreCase(List<String> list, String s) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).equalsIgnoreCase(s)) {
                return i;
            }
        }
        return -1;
    }

    // ---- the plan ---------------------------------------------------------------------------------

    private record Origin(String table, String column, boolean derived) {}

    private static final class Acc {
        final TableDef table;
        final Set<String> projected = new LinkedHashSet<>();
        final Set<String> predicate = new LinkedHashSet<>();
        final Set<String> updated = new LinkedHashSet<>();
        final Set<String> joined = new LinkedHashSet<>();
        final Map<String, Set<String>> functions = new LinkedHashMap<>();
        final Map<String, List<ValueSource>> equal = new LinkedHashMap<>();
        final Set<String> joinBound = new LinkedHashSet<>();
        final Set<String> range = new LinkedHashSet<>();
        final Map<String, String> joinKeys = new LinkedHashMap<>();
        final List<ShapeTemplate.BoundSource> bounds = new ArrayList<>();
        List<Map<String, List<ValueSource>>> disjuncts = List.of();
        Operation modify;

        Acc(TableDef table) {
            this.table = table;
        }
    }

    private final class PlanReader {
        private final RelRoot root;
        private final InsertShape insert;
        private final UpdateShape update;
        private final RelMetadataQuery mq;
        private final Map<String, Acc> tables = new LinkedHashMap<>();

        PlanReader(RelRoot root, InsertShape insert, UpdateShape update) {
            this.root = root;
            this.insert = insert;
            this.update = update;
            this.mq = root.rel.getCluster().getMetadataQuery();
        }

        ShapeTemplate read() throws UnresolvedStatementException {
            visit(root.rel);
            if (!(root.rel instanceof TableModify)) {
                for (var f : root.fields) {
                    for (Origin o : origins(root.rel, f.getKey())) {
                        acc(o.table).projected.add(o.column);
                    }
                }
            }
            List<TableTemplate> out = new ArrayList<>();
            for (Acc a : tables.values()) {
                out.add(template(a));
            }
            return new ShapeTemplate(out);
        }

        private Acc acc(String table) {
            return tables.computeIfAbsent(
                    table.toLowerCase(Locale.ROOT),
                    k -> new Acc(schema.table(table).orElseThrow()));
        }

        private String tableName(RelOptTable t) {
            List<String> q = t.getQualifiedName();
            return schema.table(q.get(q.size() - 1)).map(TableDef::name).orElse(q.get(q.size() - 1));
        }

        private void visit(RelNode rel) {
            if (rel instanceof TableScan scan) {
                acc(tableName(scan.getTable()));
            } else if (rel instanceof TableModify m) {
                Acc a = acc(tableName(m.getTable()));
                a.modify = switch (m.getOperation()) {
                    case INSERT -> Operation.INSERT;
                    case UPDATE -> Operation.UPDATE;
                    case DELETE -> Operation.DELETE;
                    default -> Operation.UPDATE;
                };
                if (m.getUpdateColumnList() != null) {
                    a.updated.addAll(m.getUpdateColumnList());
                }
            } else if (rel instanceof Filter f) {
                condition(f.getCondition(), f.getInput());
            } else if (rel instanceof Join j) {
                condition(j.getCondition(), j);
            } else if (rel instanceof Project p) {
                for (RexNode e : p.getProjects()) {
                    functions(e, p.getInput());
                    subQueries(e);
                }
            } else if (rel instanceof Aggregate agg) {
                for (int g : agg.getGroupSet()) {
                    for (Origin o : origins(agg.getInput(), g)) {
                        acc(o.table).projected.add(o.column);
                    }
                }
                for (AggregateCall call : agg.getAggCallList()) {
                    for (int arg : call.getArgList()) {
                        for (Origin o : origins(agg.getInput(), arg)) {
                            acc(o.table).projected.add(o.column);
                        }
                    }
                }
            } else if (rel instanceof Sort sort) {
                // ORDER BY compares rows by its columns: they are read as a predicate reads them, and an
                // index led by them can serve the order (ORDER BY ... LIMIT), which index advice must see
                for (RelFieldCollation fc : sort.getCollation().getFieldCollations()) {
                    for (Origin o : origins(sort.getInput(), fc.getFieldIndex())) {
                        acc(o.table).predicate.add(o.column);
                    }
                }
            }
            for (RelNode in : rel.getInputs()) {
                visit(in);
            }
        }

        private void subQueries(RexNode e) {
            e.accept(new RexShuttle() {
                @Override
                public RexNode visitSubQuery(RexSubQuery sub) {
                    visit(sub.rel);
                    return super.visitSubQuery(sub);
                }
            });
        }

        private void condition(RexNode condition, RelNode ctx) {
            for (RexNode c : RelOptUtil.conjunctions(condition)) {
                for (int i : RelOptUtil.InputFinder.bits(c)) {
                    for (Origin o : origins(ctx, i)) {
                        acc(o.table).predicate.add(o.column);
                    }
                }
                functions(c, ctx);
                subQueries(c);
                bind(c, ctx);
            }
        }

        private void bind(RexNode c, RelNode ctx) {
            if (!(c instanceof RexCall call)) {
                return;
            }
            switch (call.getKind()) {
                case EQUALS, IS_NOT_DISTINCT_FROM -> {
                    RexNode a = stripCast(call.getOperands().get(0));
                    RexNode b = stripCast(call.getOperands().get(1));
                    if (a instanceof RexInputRef ra && b instanceof RexInputRef rb) {
                        Origin oa = origin(ctx, ra.getIndex());
                        Origin ob = origin(ctx, rb.getIndex());
                        if (oa != null && ob != null && !oa.equals(ob)) {
                            acc(oa.table).joined.add(oa.column);
                            acc(ob.table).joined.add(ob.column);
                            acc(oa.table).joinBound.add(oa.column);
                            acc(ob.table).joinBound.add(ob.column);
                            if (!oa.table.equalsIgnoreCase(ob.table)) {
                                acc(oa.table).joinKeys.putIfAbsent(oa.column, ob.table + "." + ob.column);
                                acc(ob.table).joinKeys.putIfAbsent(ob.column, oa.table + "." + oa.column);
                            }
                        }
                        return;
                    }
                    if (b instanceof RexInputRef) {
                        RexNode t = a;
                        a = b;
                        b = t;
                    }
                    ValueSource v = constant(b);
                    if (a instanceof RexInputRef ref && v != null) {
                        Origin o = origin(ctx, ref.getIndex());
                        if (o != null) {
                            acc(o.table).equal.put(o.column, List.of(v));
                        }
                    }
                }
                case OR -> {
                    if (!inList(call, ctx)) {
                        disjunctiveKeys(call, ctx);
                    }
                }
                case SEARCH -> {
                    RexNode a = stripCast(call.getOperands().get(0));
                    if (!(a instanceof RexInputRef ref) || !(call.getOperands().get(1) instanceof RexLiteral lit)) {
                        return;
                    }
                    Origin o = origin(ctx, ref.getIndex());
                    if (o == null) {
                        return;
                    }
                    Sarg<?> sarg = lit.getValueAs(Sarg.class);
                    if (sarg != null && sarg.isPoints()) {
                        List<ValueSource> values = new ArrayList<>();
                        for (var r : sarg.rangeSet.asRanges()) {
                            values.add(new ValueSource(-1, text(r.lowerEndpoint())));
                        }
                        acc(o.table).equal.put(o.column, values);
                    } else {
                        acc(o.table).range.add(o.column);
                        if (sarg != null && sarg.rangeSet.asRanges().size() == 1) {
                            var r = sarg.rangeSet.asRanges().iterator().next();
                            ValueSource lo = r.hasLowerBound() ? new ValueSource(-1, text(r.lowerEndpoint())) : null;
                            ValueSource hi = r.hasUpperBound() ? new ValueSource(-1, text(r.upperEndpoint())) : null;
                            acc(o.table)
                                    .bounds
                                    .add(new ShapeTemplate.BoundSource(
                                            o.column,
                                            lo,
                                            r.hasLowerBound() && r.lowerBoundType() == BoundType.CLOSED,
                                            hi,
                                            r.hasUpperBound() && r.upperBoundType() == BoundType.CLOSED));
                        }
                    }
                }
                case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL, LIKE, BETWEEN -> {
                    comparison(call, ctx);
                    for (RexNode op : call.getOperands()) {
                        if (stripCast(op) instanceof RexInputRef ref) {
                            Origin o = origin(ctx, ref.getIndex());
                            if (o != null) {
                                acc(o.table).range.add(o.column);
                            }
                            return;
                        }
                    }
                }
                default -> {}
            }
        }

        /** {@code col < const} (or {@code const < col}, and the other comparisons) as a bound of the column's table. */
        private void comparison(RexCall call, RelNode ctx) {
            if (call.getOperands().size() != 2) {
                return;
            }
            SqlKind kind = call.getKind();
            RexNode a = stripCast(call.getOperands().get(0));
            RexNode b = stripCast(call.getOperands().get(1));
            if (!(a instanceof RexInputRef)) {
                RexNode t = a;
                a = b;
                b = t;
                kind = kind.reverse();
            }
            ValueSource v = constant(b);
            if (!(a instanceof RexInputRef ref) || v == null) {
                return;
            }
            Origin o = origin(ctx, ref.getIndex());
            if (o == null) {
                return;
            }
            ShapeTemplate.BoundSource bound = switch (kind) {
                case LESS_THAN -> new ShapeTemplate.BoundSource(o.column, null, false, v, false);
                case LESS_THAN_OR_EQUAL -> new ShapeTemplate.BoundSource(o.column, null, false, v, true);
                case GREATER_THAN -> new ShapeTemplate.BoundSource(o.column, v, false, null, false);
                case GREATER_THAN_OR_EQUAL -> new ShapeTemplate.BoundSource(o.column, v, true, null, false);
                default -> null;
            };
            if (bound != null) {
                acc(o.table).bounds.add(bound);
            }
        }

        /** {@code col = v1 OR col = v2 ...} (an IN list): binds col to every value. */
        private boolean inList(RexCall or, RelNode ctx) {
            Map<String, List<ValueSource>> m = new LinkedHashMap<>();
            String table = equalities(or, ctx, m);
            if (table == null || m.size() != 1) {
                return false;
            }
            acc(table).equal.putAll(m);
            return true;
        }

        /**
         * MediaWiki's LinkBatch form {@code (ns = 0 AND title IN ('A','B')) OR (ns = 1 AND title = 'C')}:
         * every disjunct binds the same columns of one table by equality; each disjunct's
         * combinations are keys.
         */
        private void disjunctiveKeys(RexCall or, RelNode ctx) {
            List<Map<String, List<ValueSource>>> groups = new ArrayList<>();
            String table = null;
            for (RexNode d : or.getOperands()) {
                Map<String, List<ValueSource>> m = new LinkedHashMap<>();
                for (RexNode c : RelOptUtil.conjunctions(d)) {
                    String t = c instanceof RexCall cc && cc.getKind() == SqlKind.OR
                            ? equalities(cc, ctx, m)
                            : equality(c, ctx, m);
                    if (t == null || (table != null && !table.equals(t))) {
                        return;
                    }
                    table = t;
                }
                if (!groups.isEmpty() && !groups.get(0).keySet().equals(m.keySet())) {
                    return;
                }
                groups.add(m);
            }
            if (table != null && acc(table).disjuncts.isEmpty()) {
                acc(table).disjuncts = groups;
            }
        }

        /** An OR of {@code col = const} on one column into {@code into}; returns the column's table, or null if not that form. */
        private String equalities(RexCall or, RelNode ctx, Map<String, List<ValueSource>> into) {
            Origin column = null;
            List<ValueSource> values = new ArrayList<>();
            for (RexNode d : or.getOperands()) {
                Map<String, List<ValueSource>> one = new LinkedHashMap<>();
                String t = equality(d, ctx, one);
                if (t == null || one.size() != 1) {
                    return null;
                }
                String col = one.keySet().iterator().next();
                Origin o = new Origin(t, col, false);
                if (column != null && !column.equals(o)) {
                    return null;
                }
                column = o;
                values.addAll(one.get(col));
            }
            if (column == null) {
                return null;
            }
            into.merge(column.column, values, (a, b) -> {
                List<ValueSource> all = new ArrayList<>(a);
                all.addAll(b);
                return all;
            });
            return column.table;
        }

        /** {@code col = const} (or a SEARCH of points) into {@code into}; returns the column's table, or null if not that form. */
        private String equality(RexNode c, RelNode ctx, Map<String, List<ValueSource>> into) {
            if (!(c instanceof RexCall eq)) {
                return null;
            }
            if (eq.getKind() == SqlKind.SEARCH
                    && stripCast(eq.getOperands().get(0)) instanceof RexInputRef ref
                    && eq.getOperands().get(1) instanceof RexLiteral lit) {
                Sarg<?> sarg = lit.getValueAs(Sarg.class);
                Origin o = origin(ctx, ref.getIndex());
                if (sarg == null || !sarg.isPoints() || o == null) {
                    return null;
                }
                List<ValueSource> values = new ArrayList<>();
                for (var r : sarg.rangeSet.asRanges()) {
                    values.add(new ValueSource(-1, text(r.lowerEndpoint())));
                }
                into.put(o.column, values);
                return o.table;
            }
            if (eq.getKind() != SqlKind.EQUALS) {
                return null;
            }
            RexNode a = stripCast(eq.getOperands().get(0));
            RexNode b = stripCast(eq.getOperands().get(1));
            if (b instanceof RexInputRef) {
                RexNode t = a;
                a = b;
                b = t;
            }
            ValueSource v = constant(b);
            if (!(a instanceof RexInputRef ref) || v == null) {
                return null;
            }
            Origin o = origin(ctx, ref.getIndex());
            if (o == null) {
                return null;
            }
            into.put(o.column, List.of(v));
            return o.table;
        }

        private void functions(RexNode e, RelNode ctx) {
            e.accept(new RexShuttle() {
                @Override
                public RexNode visitCall(RexCall call) {
                    boolean toDate =
                            call.getKind() == SqlKind.CAST && call.getType().getSqlTypeName() == SqlTypeName.DATE;
                    if ((call.getOperator() instanceof SqlFunction && call.getKind() != SqlKind.CAST) || toDate) {
                        // DATE(x) arrives as CAST(x AS DATE); other casts are type coercion, not the query's intent
                        String name = toDate ? "DATE" : call.getOperator().getName();
                        if (call.getKind() == SqlKind.EXTRACT
                                && call.getOperands().get(0) instanceof RexLiteral flag) {
                            name = String.valueOf(flag.getValue());
                        }
                        for (RexNode op : call.getOperands()) {
                            if (stripCast(op) instanceof RexInputRef ref) {
                                for (Origin o : origins(ctx, ref.getIndex())) {
                                    acc(o.table)
                                            .functions
                                            .computeIfAbsent(o.column, k -> new LinkedHashSet<>())
                                            .add(name);
                                }
                            }
                        }
                    }
                    return super.visitCall(call);
                }
            });
        }

        private ValueSource constant(RexNode n) {
            if (n instanceof RexDynamicParam p) {
                return new ValueSource(p.getIndex(), null);
            }
            if (n instanceof RexLiteral l && !l.isNull()) {
                return new ValueSource(-1, literalText(l));
            }
            return null;
        }

        /** The single plain column a field comes from, or null when it is computed or ambiguous. */
        private Origin origin(RelNode rel, int index) {
            Set<Origin> all = origins(rel, index);
            if (all.size() != 1) {
                return null;
            }
            Origin o = all.iterator().next();
            return o.derived ? null : o;
        }

        private Set<Origin> origins(RelNode rel, int index) {
            Set<RelColumnOrigin> raw = mq.getColumnOrigins(rel, index);
            Set<Origin> out = new LinkedHashSet<>();
            if (raw == null) {
                return out;
            }
            for (RelColumnOrigin o : raw) {
                RelOptTable t = o.getOriginTable();
                String column = t.getRowType()
                        .getFieldList()
                        .get(o.getOriginColumnOrdinal())
                        .getName();
                out.add(new Origin(tableName(t), column, o.isDerived()));
            }
            return out;
        }

        private TableTemplate template(Acc a) {
            TableDef t = a.table;
            Operation op;
            IndexDef index = null;
            List<String> keyColumns = new ArrayList<>();
            List<Map<String, ValueSource>> insertRows = List.of();
            Map<String, ValueSource> setValues = Map.of();
            if (a.modify == Operation.INSERT && insert != null && insert.table.equalsIgnoreCase(t.name())) {
                op = Operation.INSERT;
                keyColumns.addAll(insert.keyColumns);
                insertRows = insert.rows;
                index = insert.index == null ? null : t.index(insert.index).orElse(null);
            } else {
                Set<String> literal = new LinkedHashSet<>(a.equal.keySet());
                if (!a.disjuncts.isEmpty()) {
                    literal.addAll(a.disjuncts.get(0).keySet());
                }
                Set<String> bound = new LinkedHashSet<>(literal);
                bound.addAll(a.joinBound);
                // a unique key bound by literals first, then one bound by joins too
                for (IndexDef u : t.uniqueKeys()) {
                    if (literal.containsAll(u.columns())) {
                        index = u;
                        break;
                    }
                }
                if (index == null) {
                    for (IndexDef u : t.uniqueKeys()) {
                        if (bound.containsAll(u.columns())) {
                            index = u;
                            break;
                        }
                    }
                }
                if (index != null) {
                    op = Operation.POINT_LOOKUP;
                    keyColumns.addAll(index.columns());
                } else {
                    int best = 0;
                    for (IndexDef ix : t.allIndexes()) {
                        int prefix = 0;
                        while (prefix < ix.columns().size()
                                && bound.contains(ix.columns().get(prefix))) {
                            prefix++;
                        }
                        int reach = prefix
                                + (prefix < ix.columns().size()
                                                && a.range.contains(ix.columns().get(prefix))
                                        ? 1
                                        : 0);
                        if (reach > best || (reach == best && reach > 0 && prefix > keyColumns.size())) {
                            best = reach;
                            index = ix;
                            keyColumns = new ArrayList<>(ix.columns().subList(0, prefix));
                        }
                    }
                    op = index == null ? Operation.SCAN : Operation.RANGE;
                }
                if (a.modify != null) {
                    op = a.modify;
                }
                if (op == Operation.UPDATE && update != null && update.table.equalsIgnoreCase(t.name())) {
                    setValues = update.set;
                }
            }
            List<List<ValueSource>> alternatives = new ArrayList<>();
            for (String k : keyColumns) {
                List<ValueSource> v = a.equal.get(k);
                alternatives.add(v == null ? List.of() : v);
            }
            List<List<List<ValueSource>>> disjuncts = new ArrayList<>();
            for (Map<String, List<ValueSource>> d : a.disjuncts) {
                List<List<ValueSource>> alt = new ArrayList<>();
                for (int i = 0; i < keyColumns.size(); i++) {
                    alt.add(d.getOrDefault(keyColumns.get(i), alternatives.get(i)));
                }
                disjuncts.add(alt);
            }
            // Equalities that bind no key column filter like the other bounds (one value; an IN list is left out).
            List<ShapeTemplate.BoundSource> bounds = new ArrayList<>();
            for (Map.Entry<String, List<ValueSource>> eq : a.equal.entrySet()) {
                if (!keyColumns.contains(eq.getKey()) && eq.getValue().size() == 1) {
                    ValueSource v = eq.getValue().get(0);
                    bounds.add(new ShapeTemplate.BoundSource(eq.getKey(), v, true, v, true));
                }
            }
            for (ShapeTemplate.BoundSource b : a.bounds) {
                if (!keyColumns.contains(b.column())) {
                    bounds.add(b);
                }
            }
            return new TableTemplate(
                    t.name(),
                    op,
                    index == null ? null : index.name(),
                    List.copyOf(keyColumns),
                    alternatives,
                    disjuncts,
                    insertRows,
                    setValues,
                    ordered(a.projected),
                    ordered(a.predicate),
                    ordered(a.updated),
                    ordered(a.joined),
                    copy(a.functions),
                    Collections.unmodifiableMap(new LinkedHashMap<>(a.joinKeys)),
                    List.copyOf(bounds));
        }
    }

    /** Immutable, in the order the plan named them (Set.copyOf would reorder per JVM run). */
    private static Set<String> ordered(Set<String> s) {
        return Collections.unmodifiableSet(new LinkedHashSet<>(s));
    }

    private static Map<String, Set<String>> copy(Map<String, Set<String>> m) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, ordered(v)));
        return Collections.unmodifiableMap(out);
    }

    private static RexNode stripCast(RexNode n) {
        while (n instanceof RexCall c && (c.getKind() == SqlKind.CAST || c.getKind() == SqlKind.SAFE_CAST)) {
            n = c.getOperands().get(0);
        }
        return n;
    }

    static String literalText(RexLiteral l) {
        Comparable<?> v = l.getValue();
        return text(v);
    }

    private static String text(Object v) {
        if (v instanceof NlsString s) {
            return s.getValue();
        }
        if (v instanceof BigDecimal d) {
            return d.stripTrailingZeros().toPlainString();
        }
        return String.valueOf(v);
    }
}
