package dev.wastecheck.traces.generate;

import dev.wastecheck.model.schema.DatabaseSchema;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Generates a Wikipedia-style database as a real mysqldump ({@code DIR/dump.sql}) and the trace of
 * SQL statements its wiki would issue ({@code DIR/trace.log}), deterministic per seed and streaming:
 * memory is a few arrays of one entry per page, never per revision or per byte of text.
 *
 * <p>The distributions follow what "No Bits Left Behind" (Wu, Curino, Madden, CIDR 2011, §2.1.4,
 * §3.1) reports for Wikipedia: page popularity is Zipf-like (or a real curve from a counts file);
 * revisions per page are heavy-tailed (lognormal, mean about 12, median 2) and independent of
 * popularity; text sizes are heavy-tailed; a page view reads the page by (namespace, title), its
 * latest revision and that revision's text, so almost every revision tuple is cold. Revisions are
 * written in insertion (time) order, each one drawn from the pages that still have revisions to
 * come, so every page's latest revision lies somewhere in the middle of the table: the hot tuples
 * are scattered. Edits choose pages in proportion to their revision history, not their
 * popularity, and make the new revision the page's latest.
 *
 * <p>Scale: {@link Config#pages()} is the number of pages. At the defaults a page costs about 60 KB
 * of dump (12 revisions of about 4.6 KB of text), so 1,000 pages make about 60 MB and 20,000 pages
 * about 1.2 GB.
 */
public final class WikiGenerator {
    private static final long T0 = 979_516_800L; // 2001-01-15T00:00:00Z, Wikipedia's first day
    private static final long T1 = 1_464_739_200L; // 2016-06-01T00:00:00Z, the dump's date and the trace's start
    private static final int MAX_TEXT = 2 << 20;
    private static final int COMMENTS = 1000;

    /**
     * @param pages            scale: the number of pages
     * @param seed             the same seed writes the same bytes
     * @param zipfExponent     popularity {@code 1/rank^s} (ignored when {@code popularityFile} is given)
     * @param popularityFile   a counts file, one count per line (e.g. elwiki readcount.txt), or null
     * @param requests         requests in the trace (views, edits, watchlist views); each is 1 to 8 statements
     * @param editShare        share of requests that are edits
     * @param watchlistShare   share of requests that read a user's watchlist
     * @param revisionsMean    mean revisions per page (lognormal)
     * @param revisionsMedian  median revisions per page
     * @param textMedianBytes  median text size of a revision (lognormal)
     * @param textSigma        lognormal sigma of the text size
     * @param maxInsertBytes   longest extended INSERT, like mysqldump's net_buffer_length
     * @param scanShare        share of requests that rebuild a special page by scanning the page table
     *                         (Special:ShortPages: the articles shorter than a length, no index on it)
     */
    public record Config(
            long pages,
            long seed,
            double zipfExponent,
            Path popularityFile,
            long requests,
            double editShare,
            double watchlistShare,
            double revisionsMean,
            double revisionsMedian,
            int textMedianBytes,
            double textSigma,
            int maxInsertBytes,
            double scanShare) {
        public Config {
            if (pages < 1 || pages > Integer.MAX_VALUE - 1) {
                throw new GeneratorInputException(
                        "--scale: expected a number of pages from 1 to " + (Integer.MAX_VALUE - 1) + ", got " + pages);
            }
            if (revisionsMean < revisionsMedian || revisionsMedian < 1) {
                throw new GeneratorInputException("revisions: expected mean >= median >= 1, got mean " + revisionsMean
                        + ", median " + revisionsMedian);
            }
            if (editShare < 0 || watchlistShare < 0 || scanShare < 0 || editShare + watchlistShare + scanShare > 1) {
                throw new GeneratorInputException(
                        "--edit-share, --watchlist-share, --scan-share: expected shares in [0,1] summing to at most 1");
            }
            if (requests < 0) {
                throw new GeneratorInputException("--requests: expected a non-negative count, got " + requests);
            }
        }

        public static Config defaults(long pages, long seed) {
            return new Config(pages, seed, 1.0, null, 20 * pages, 0.02, 0.01, 12, 2, 2000, 1.3, 1_000_000, 0);
        }

        public Config withZipfExponent(double s) {
            return new Config(
                    pages,
                    seed,
                    s,
                    popularityFile,
                    requests,
                    editShare,
                    watchlistShare,
                    revisionsMean,
                    revisionsMedian,
                    textMedianBytes,
                    textSigma,
                    maxInsertBytes,
                    scanShare);
        }

        public Config withPopularityFile(Path f) {
            return new Config(
                    pages,
                    seed,
                    zipfExponent,
                    f,
                    requests,
                    editShare,
                    watchlistShare,
                    revisionsMean,
                    revisionsMedian,
                    textMedianBytes,
                    textSigma,
                    maxInsertBytes,
                    scanShare);
        }

        public Config withRequests(long r) {
            return new Config(
                    pages,
                    seed,
                    zipfExponent,
                    popularityFile,
                    r,
                    editShare,
                    watchlistShare,
                    revisionsMean,
                    revisionsMedian,
                    textMedianBytes,
                    textSigma,
                    maxInsertBytes,
                    scanShare);
        }

        public Config withEditShare(double e) {
            return new Config(
                    pages,
                    seed,
                    zipfExponent,
                    popularityFile,
                    requests,
                    e,
                    watchlistShare,
                    revisionsMean,
                    revisionsMedian,
                    textMedianBytes,
                    textSigma,
                    maxInsertBytes,
                    scanShare);
        }

        public Config withWatchlistShare(double w) {
            return new Config(
                    pages,
                    seed,
                    zipfExponent,
                    popularityFile,
                    requests,
                    editShare,
                    w,
                    revisionsMean,
                    revisionsMedian,
                    textMedianBytes,
                    textSigma,
                    maxInsertBytes,
                    scanShare);
        }

        public Config withTextMedianBytes(int b) {
            return new Config(
                    pages,
                    seed,
                    zipfExponent,
                    popularityFile,
                    requests,
                    editShare,
                    watchlistShare,
                    revisionsMean,
                    revisionsMedian,
                    b,
                    textSigma,
                    maxInsertBytes,
                    scanShare);
        }

        public Config withScanShare(double share) {
            return new Config(
                    pages,
                    seed,
                    zipfExponent,
                    popularityFile,
                    requests,
                    editShare,
                    watchlistShare,
                    revisionsMean,
                    revisionsMedian,
                    textMedianBytes,
                    textSigma,
                    maxInsertBytes,
                    share);
        }

        public Config withMaxInsertBytes(int b) {
            return new Config(
                    pages,
                    seed,
                    zipfExponent,
                    popularityFile,
                    requests,
                    editShare,
                    watchlistShare,
                    revisionsMean,
                    revisionsMedian,
                    textMedianBytes,
                    textSigma,
                    b,
                    scanShare);
        }
    }

    /** What was written: rows and bytes per table in dump order, and the trace's size. */
    public record Result(
            Map<String, Long> rows,
            Map<String, Long> tableBytes,
            long dumpBytes,
            long traceBytes,
            long traceRequests,
            long traceStatements,
            long dumpNanos) {}

    private final Config cfg;
    private final int pages;
    private final WikiText text;
    private final int actors;
    private final int users;
    private final int[] revCount;
    private final byte[] namespace;
    private final int[] rankToPage;
    private final Popularity popularity;
    private long revisions;

    public WikiGenerator(Config cfg) throws IOException {
        this.cfg = cfg;
        this.pages = (int) cfg.pages();
        this.text = new WikiText(cfg.seed());
        this.actors = Math.max(10, pages / 5);
        this.users = (int) Math.ceil(actors * 0.7);
        this.revCount = new int[pages];
        this.namespace = new byte[pages];
        double mu = Math.log(cfg.revisionsMedian());
        double sigma = Math.sqrt(2 * Math.log(cfg.revisionsMean() / cfg.revisionsMedian()));
        for (int p = 0; p < pages; p++) {
            long h = hash(1, p + 1);
            double z = gaussian(h);
            revCount[p] = (int) Math.max(1, Math.min(100_000, Math.round(Math.exp(mu + sigma * z))));
            revisions += revCount[p];
            double u = unit(mix(h ^ 0x55));
            namespace[p] = (byte) (u < 0.70 ? 0 : u < 0.80 ? 1 : u < 0.88 ? 2 : u < 0.93 ? 3 : u < 0.97 ? 10 : 14);
        }
        if (revisions > Integer.MAX_VALUE - cfg.requests()) {
            throw new GeneratorInputException(
                    "--scale: " + pages + " pages make more revisions than this generator numbers (2^31)");
        }
        // popularity is independent of revision counts: ranks go to pages in a random order
        rankToPage = new int[pages];
        for (int i = 0; i < pages; i++) {
            rankToPage[i] = i;
        }
        SplittableRandom shuffle = new SplittableRandom(cfg.seed() ^ 0x9A9E5L);
        for (int i = pages - 1; i > 0; i--) {
            int j = shuffle.nextInt(i + 1);
            int t = rankToPage[i];
            rankToPage[i] = rankToPage[j];
            rankToPage[j] = t;
        }
        popularity = cfg.popularityFile() != null
                ? Popularity.fromCounts(cfg.popularityFile(), pages)
                : Popularity.zipf(pages, cfg.zipfExponent());
    }

    public static DatabaseSchema schema() {
        return WikiSchema.schema();
    }

    /** Revisions the dump will hold (before the trace's edits add more). */
    public long revisions() {
        return revisions;
    }

    public Popularity popularity() {
        return popularity;
    }

    /** Revisions page {@code pageId} (1-based) has in the dump. */
    public int revisionsOf(int pageId) {
        return revCount[pageId - 1];
    }

    /** Pass 1: the interleaving decides each page's latest revision, which the page table (dumped first) needs. */
    private int[] latestRevisions() {
        int[] latest = new int[pages];
        Fenwick order = new Fenwick(revCount);
        SplittableRandom draw = new SplittableRandom(cfg.seed() ^ 0x0DE5L);
        for (int r = 1; r <= revisions; r++) {
            int p = order.takeAt(draw.nextLong(order.total()));
            latest[p] = r;
        }
        return latest;
    }

    /** Writes only the trace (the same bytes {@link #generate} writes to trace.log); returns {bytes, requests, statements}. */
    public long[] generateTrace(Path file) throws IOException {
        int[] latest = latestRevisions();
        int[] latestLen = new int[pages];
        for (int p = 0; p < pages; p++) {
            latestLen[p] = storedLength(latest[p]);
        }
        return writeTrace(file, latest, latestLen);
    }

    /** Writes {@code dir/dump.sql} and {@code dir/trace.log}. */
    public Result generate(Path dir) throws IOException {
        Files.createDirectories(dir);
        long start = System.nanoTime();
        int[] latest = latestRevisions();
        int[] latestLen = new int[pages];
        for (int p = 0; p < pages; p++) {
            latestLen[p] = storedLength(latest[p]);
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        Map<String, Long> bytes = new LinkedHashMap<>();
        long dumpBytes;
        try (MysqlDumpWriter dump = new MysqlDumpWriter(dir.resolve("dump.sql"), cfg.maxInsertBytes())) {
            dump.header("Generated by wastecheck trace generate --scale " + pages + " --seed " + cfg.seed());
            SqlRow row = new SqlRow();
            for (Map.Entry<String, String> t : WikiSchema.CREATE_TABLES.entrySet()) {
                long before = dump.bytesWritten();
                dump.beginTable(t.getKey(), t.getValue());
                switch (t.getKey()) {
                    case "actor" -> writeActors(dump, row);
                    case "comment" -> writeComments(dump, row);
                    case "content" -> writeContent(dump, row);
                    case "page" -> writePages(dump, row, latest, latestLen);
                    case "revision" -> writeRevisions(dump, row);
                    case "slots" -> writeSlots(dump, row);
                    case "text" -> writeText(dump, row);
                    case "user" -> writeUsers(dump, row);
                    case "watchlist" -> writeWatchlist(dump, row);
                    default -> throw new IllegalStateException(t.getKey());
                }
                rows.put(t.getKey(), dump.endTable());
                bytes.put(t.getKey(), dump.bytesWritten() - before);
            }
            dump.footer(LocalDateTime.ofEpochSecond(T1, 0, ZoneOffset.UTC).toLocalDate() + "  0:00:00");
            dumpBytes = dump.bytesWritten();
        }
        long dumpNanos = System.nanoTime() - start;
        long[] trace = writeTrace(dir.resolve("trace.log"), latest, latestLen);
        return new Result(rows, bytes, dumpBytes, trace[0], trace[1], trace[2], dumpNanos);
    }

    // ---- tables ------------------------------------------------------------------------------

    private void writeActors(MysqlDumpWriter dump, SqlRow row) throws IOException {
        for (int a = 1; a <= actors; a++) {
            row.begin().num(a);
            if (a <= users) {
                row.num(a).str(userName(a));
            } else {
                row.nul().str(ipName(a));
            }
            dump.row(row.end());
        }
    }

    private void writeComments(MysqlDumpWriter dump, SqlRow row) throws IOException {
        for (int c = 1; c <= COMMENTS; c++) {
            String s = commentText(c);
            dump.row(row.begin().num(c).num(s.hashCode()).str(s).nul().end());
        }
    }

    private void writeContent(MysqlDumpWriter dump, SqlRow row) throws IOException {
        for (int r = 1; r <= revisions; r++) {
            dump.row(row.begin()
                    .num(r)
                    .num(storedLength(r))
                    .str(sha1(r))
                    .num(1)
                    .str("tt:" + r)
                    .end());
        }
    }

    private void writePages(MysqlDumpWriter dump, SqlRow row, int[] latest, int[] latestLen) throws IOException {
        for (int p = 0; p < pages; p++) {
            long h = hash(2, p + 1);
            boolean redirect = namespace[p] == 0 && unit(h) < 0.08;
            String touched = timestamp(revisionTime(latest[p]));
            row.begin()
                    .num(p + 1)
                    .num(namespace[p])
                    .str(text.title(p + 1))
                    .num(redirect ? 1 : 0)
                    .num(revCount[p] == 1 ? 1 : 0)
                    .raw(random12(mix(h)))
                    .str(touched)
                    .str(touched)
                    .num(latest[p])
                    .num(latestLen[p])
                    .str("wikitext")
                    .nul();
            dump.row(row.end());
        }
    }

    private void writeRevisions(MysqlDumpWriter dump, SqlRow row) throws IOException {
        int[] previous = new int[pages];
        Fenwick order = new Fenwick(revCount);
        SplittableRandom draw = new SplittableRandom(cfg.seed() ^ 0x0DE5L);
        for (int r = 1; r <= revisions; r++) {
            int p = order.takeAt(draw.nextLong(order.total()));
            long h = hash(3, r);
            row.begin()
                    .num(r)
                    .num(p + 1)
                    .num(commentOf(h))
                    .num(actorOf(mix(h)))
                    .str(timestamp(revisionTime(r)))
                    .num(unit(mix(h ^ 7)) < 0.3 ? 1 : 0)
                    .num(0)
                    .num(storedLength(r));
            if (previous[p] == 0) {
                row.num(0);
            } else {
                row.num(previous[p]);
            }
            row.str(sha1(r));
            previous[p] = r;
            dump.row(row.end());
        }
    }

    private void writeSlots(MysqlDumpWriter dump, SqlRow row) throws IOException {
        for (int r = 1; r <= revisions; r++) {
            dump.row(row.begin().num(r).num(1).num(r).num(r).end());
        }
    }

    private void writeText(MysqlDumpWriter dump, SqlRow row) throws IOException {
        byte[] corpus = text.corpus;
        for (int r = 1; r <= revisions; r++) {
            int off = textOffset(r, textLength(r));
            int n = storedLength(r);
            row.begin().num(r).strCyclic(corpus, off, n).str("utf-8");
            dump.row(row.end());
        }
    }

    private void writeUsers(MysqlDumpWriter dump, SqlRow row) throws IOException {
        for (int u = 1; u <= users; u++) {
            long h = hash(4, u);
            long registered = T0 + (long) (unit(h) * (T1 - T0));
            String reg = timestamp(registered);
            boolean email = unit(mix(h)) < 0.4;
            row.begin()
                    .num(u)
                    .str(userName(u))
                    .str("")
                    .str("x")
                    .str("")
                    .nul()
                    .str(email ? userName(u).toLowerCase() + "@example.org" : "")
                    .str(timestamp(registered + (long) (unit(mix(h ^ 3)) * (T1 - registered))))
                    .str(hex32(mix(h ^ 5)))
                    .raw(email ? "'" + reg + "'" : "NULL")
                    .nul()
                    .nul()
                    .str(reg)
                    .num((long) Math.floor(Math.exp(3 * unit(mix(h ^ 9)) * 3)))
                    .nul()
                    .num(0);
            dump.row(row.end());
        }
    }

    private void writeWatchlist(MysqlDumpWriter dump, SqlRow row) throws IOException {
        long id = 0;
        Set<Integer> seen = new HashSet<>();
        for (int u = 1; u <= users; u++) {
            long h = hash(5, u);
            int n = (int) Math.min(1000, Math.floor(Math.exp(Math.log(2) + 1.5 * gaussian(h))));
            SplittableRandom r = new SplittableRandom(h);
            seen.clear();
            for (int i = 0; i < n; i++) {
                int p = rankToPage[popularity.rank(r.nextDouble())];
                if (!seen.add(p)) {
                    continue;
                }
                row.begin().num(++id).num(u).num(namespace[p]).str(text.title(p + 1));
                if (r.nextInt(5) == 0) {
                    row.str(timestamp(T1 - r.nextInt(86_400 * 30)));
                } else {
                    row.nul();
                }
                dump.row(row.end());
            }
        }
    }

    // ---- trace ---------------------------------------------------------------------------------

    private long[] writeTrace(Path file, int[] latest, int[] latestLen) throws IOException {
        SplittableRandom rng = new SplittableRandom(cfg.seed() ^ 0x7A11L);
        long ms = T1 * 1000;
        long nextRev = revisions + 1;
        long statements = 0;
        long chars = 0;
        StringBuilder sb = new StringBuilder(256);
        // edits go to pages in proportion to their revision history, not their popularity: revisions
        // per page are independent of views (the Main Page is read by millions and rarely edited)
        long[] editCumulative = new long[pages];
        long sum = 0;
        for (int p = 0; p < pages; p++) {
            sum += revCount[p];
            editCumulative[p] = sum;
        }
        try (Writer out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 20)) {
            String header =
                    "-- wastecheck trace v1: one SQL statement per line, each prefixed by /* time */ (ISO-8601 UTC)\n"
                            + "-- generated by wastecheck trace generate --scale " + pages + " --seed " + cfg.seed()
                            + "\n";
            out.write(header);
            chars += header.length();
            for (long q = 0; q < cfg.requests(); q++) {
                ms += 1 + (long) (-Math.log(1 - rng.nextDouble()) * 20);
                String time = Instant.ofEpochMilli(ms).toString();
                double kind = rng.nextDouble();
                boolean isEdit = kind >= cfg.watchlistShare() && kind < cfg.watchlistShare() + cfg.editShare();
                int p;
                if (isEdit) {
                    int at = Arrays.binarySearch(editCumulative, rng.nextLong(sum) + 1);
                    p = at >= 0 ? at : -at - 1;
                } else {
                    p = rankToPage[popularity.rank(rng.nextDouble())];
                }
                int ns = namespace[p];
                String title = text.title(p + 1);
                sb.setLength(0);
                if (kind >= cfg.watchlistShare() + cfg.editShare()
                        && kind < cfg.watchlistShare() + cfg.editShare() + cfg.scanShare()) {
                    // Special:ShortPages rebuilt: every article shorter than a length, found by scanning the page table
                    line(sb, time)
                            .append(
                                    "SELECT page_id,page_namespace,page_title,page_len FROM page WHERE page_is_redirect = 0 AND page_len < ")
                            .append(50 + rng.nextInt(450))
                            .append(";\n");
                    statements += 1;
                } else if (kind < cfg.watchlistShare()) {
                    int user = 1 + (int) (users * Math.pow(rng.nextDouble(), 2));
                    line(sb, time)
                            .append(
                                    "SELECT wl_namespace,wl_title,wl_notificationtimestamp FROM watchlist WHERE wl_user = ")
                            .append(user)
                            .append(";\n");
                    statements += 1;
                } else if (isEdit) {
                    long rev = nextRev++;
                    int off = textOffset(rev, textLength(rev));
                    int len = snapLength(off, textLength(rev));
                    int actor = actorOf(mix(hash(6, rev)));
                    String ts = timestamp(ms / 1000);
                    pageLookup(sb, time, ns, title);
                    line(sb, time).append("SELECT actor_id FROM actor WHERE actor_name = ");
                    SqlRow.appendLiteral(sb, actor <= users ? userName(actor) : ipName(actor));
                    sb.append(" LIMIT 1;\n");
                    line(sb, time)
                            .append("INSERT INTO text (old_id,old_text,old_flags) VALUES (")
                            .append(rev)
                            .append(',');
                    SqlRow.appendLiteral(sb, corpusSlice(off, len));
                    sb.append(",'utf-8');\n");
                    line(sb, time)
                            .append(
                                    "INSERT INTO content (content_id,content_size,content_sha1,content_model,content_address) VALUES (")
                            .append(rev)
                            .append(',')
                            .append(len)
                            .append(",'")
                            .append(sha1(rev))
                            .append("',1,'tt:")
                            .append(rev)
                            .append("');\n");
                    line(sb, time)
                            .append(
                                    "INSERT INTO revision (rev_id,rev_page,rev_comment_id,rev_actor,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1) VALUES (")
                            .append(rev)
                            .append(',')
                            .append(p + 1)
                            .append(',')
                            .append(commentOf(hash(7, rev)))
                            .append(',')
                            .append(actor)
                            .append(",'")
                            .append(ts)
                            .append("',0,0,")
                            .append(len)
                            .append(',')
                            .append(latest[p])
                            .append(",'")
                            .append(sha1(rev))
                            .append("');\n");
                    line(sb, time)
                            .append(
                                    "INSERT INTO slots (slot_revision_id,slot_role_id,slot_content_id,slot_origin) VALUES (")
                            .append(rev)
                            .append(",1,")
                            .append(rev)
                            .append(',')
                            .append(rev)
                            .append(");\n");
                    line(sb, time)
                            .append("UPDATE page SET page_latest = ")
                            .append(rev)
                            .append(",page_touched = '")
                            .append(ts)
                            .append("',page_is_new = 0,page_len = ")
                            .append(len)
                            .append(" WHERE page_id = ")
                            .append(p + 1)
                            .append(" AND page_latest = ")
                            .append(latest[p])
                            .append(";\n");
                    line(sb, time)
                            .append("UPDATE watchlist SET wl_notificationtimestamp = '")
                            .append(ts)
                            .append("' WHERE wl_namespace = ")
                            .append(ns)
                            .append(" AND wl_title = ");
                    SqlRow.appendLiteral(sb, title);
                    sb.append(" AND wl_notificationtimestamp IS NULL;\n");
                    statements += 8;
                    latest[p] = (int) rev;
                    latestLen[p] = len;
                } else {
                    pageLookup(sb, time, ns, title);
                    int rev = latest[p];
                    line(sb, time)
                            .append(
                                    "SELECT rev_id,rev_page,rev_actor,rev_timestamp,rev_minor_edit,rev_len,rev_parent_id,rev_sha1 FROM revision WHERE rev_id = ")
                            .append(rev)
                            .append(";\n");
                    line(sb, time)
                            .append(
                                    "SELECT slot_revision_id,slot_content_id,slot_origin,slot_role_id,content_size,content_sha1,content_address,content_model"
                                            + " FROM slots JOIN content ON slot_content_id = content_id WHERE slot_revision_id = ")
                            .append(rev)
                            .append(";\n");
                    line(sb, time)
                            .append("SELECT old_text,old_flags FROM text WHERE old_id = ")
                            .append(rev)
                            .append(";\n");
                    statements += 4;
                }
                out.append(sb);
                chars += sb.length();
            }
        }
        return new long[] {Files.size(file), cfg.requests(), statements};
    }

    private static StringBuilder line(StringBuilder sb, String time) {
        return sb.append("/* ").append(time).append(" */ ");
    }

    private static void pageLookup(StringBuilder sb, String time, int ns, String title) {
        line(sb, time)
                .append("SELECT page_id,page_latest FROM page WHERE page_namespace = ")
                .append(ns)
                .append(" AND page_title = ");
        SqlRow.appendLiteral(sb, title);
        sb.append(" LIMIT 1;\n");
    }

    private String corpusSlice(int off, int len) {
        byte[] c = text.corpus;
        byte[] out = new byte[len];
        for (int i = 0; i < len; ) {
            int take = Math.min(len - i, c.length - off);
            System.arraycopy(c, off, out, i, take);
            i += take;
            off = 0;
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    // ---- values --------------------------------------------------------------------------------

    private int textLength(long rev) {
        double z = gaussian(hash(8, rev));
        return (int) Math.max(
                16, Math.min(MAX_TEXT, Math.round(cfg.textMedianBytes() * Math.exp(cfg.textSigma() * z))));
    }

    /** The bytes of revision {@code rev}'s text as stored (drawn length, snapped to a character boundary). */
    private int storedLength(long rev) {
        int n = textLength(rev);
        return snapLength(textOffset(rev, n), n);
    }

    /** Shortens a slice so it ends on a character boundary (the text stays valid UTF-8). */
    private int snapLength(int off, int n) {
        byte[] c = text.corpus;
        while (n > 1 && (c[(int) ((off + (long) n) % c.length)] & 0xC0) == 0x80) {
            n--;
        }
        return n;
    }

    /** Where revision {@code rev}'s text starts in the corpus: on a character boundary. */
    private int textOffset(long rev, int len) {
        byte[] c = text.corpus;
        int off = (int) Math.floorMod(mix(hash(9, rev)), (long) c.length);
        while ((c[off] & 0xC0) == 0x80) {
            off = (off + 1) % c.length;
        }
        return off;
    }

    private long revisionTime(long rev) {
        return T0 + (rev - 1) * (T1 - T0) / Math.max(1, revisions);
    }

    private int actorOf(long h) {
        double u = unit(h);
        return 1 + (int) Math.min(actors - 1, Math.floor(actors * u * u * u));
    }

    private static int commentOf(long h) {
        double u = unit(mix(h ^ 11));
        return 1 + (int) Math.min(COMMENTS - 1, Math.floor(COMMENTS * u * u));
    }

    private String userName(int u) {
        String w = text.words[(u - 1) % WikiText.WORDS];
        String base = Character.toUpperCase(w.charAt(0)) + w.substring(1);
        int gen = (u - 1) / WikiText.WORDS;
        return gen == 0 ? base : base + gen;
    }

    private static String ipName(int a) {
        return "10." + ((a >> 16) & 255) + "." + ((a >> 8) & 255) + "." + (a & 255);
    }

    private String commentText(int c) {
        String w = text.words[(c * 31) % WikiText.WORDS];
        return switch (c % 5) {
            case 0 -> "/* " + w + " */ fix typo";
            case 1 -> "Reverted edits by " + ipName(c) + " to last version";
            case 2 -> "/* " + w + " */ added reference";
            case 3 -> "";
            default -> "copyedit " + w;
        };
    }

    /** A base-36 digest in the form MediaWiki stores rev_sha1 (31 characters); derived from the id, not the text. */
    private String sha1(long rev) {
        char[] s = new char[31];
        long h = hash(10, rev);
        for (int i = 0; i < 31; i++) {
            if (i % 12 == 0) {
                h = mix(h + i);
            }
            s[i] = Character.forDigit((int) Math.floorMod(h, 36L), 36);
            h = Long.divideUnsigned(h, 36);
        }
        return new String(s);
    }

    private static String hex32(long h) {
        return String.format("%016x%016x", h, mix(h));
    }

    private static String random12(long h) {
        long v = Math.floorMod(h, 1_000_000_000_000L);
        String digits = Long.toString(v);
        return "0." + "0".repeat(12 - digits.length()) + digits;
    }

    static String timestamp(long epochSecond) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
        char[] c = new char[14];
        put(c, 0, t.getYear(), 4);
        put(c, 4, t.getMonthValue(), 2);
        put(c, 6, t.getDayOfMonth(), 2);
        put(c, 8, t.getHour(), 2);
        put(c, 10, t.getMinute(), 2);
        put(c, 12, t.getSecond(), 2);
        return new String(c);
    }

    private static void put(char[] c, int at, int v, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + v % 10);
            v /= 10;
        }
    }

    private long hash(int kind, long id) {
        return mix(cfg.seed() * 0x9E3779B97F4A7C15L + kind * 0xD1B54A32D192ED03L + id);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static double unit(long h) {
        return (h >>> 11) * 0x1.0p-53;
    }

    /** A standard normal value from a hash (Box-Muller over two derived uniforms). */
    static double gaussian(long h) {
        double u1 = 1 - unit(h);
        double u2 = unit(mix(h + 0x632BE59BD9B4E019L));
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
