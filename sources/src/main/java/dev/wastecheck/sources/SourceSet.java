package dev.wastecheck.sources;

import dev.wastecheck.sources.SourceDetector.DetectedFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the SOURCE arguments are together, checked before a byte of them is loaded: inputs that
 * make one database out of what is not one. The same dump given twice would count every row twice
 * and make every key look duplicated; a MySQL dump beside a PostgreSQL dump would be read in one
 * dialect and reported as one database; a stray note in a dump folder, read as CSV because it is
 * none of the other formats, would become a table. Each is refused with what was found and what
 * to do instead.
 */
public final class SourceSet {
    /** Lines a dump tool writes at the top of its output: they say the dialect beyond doubt. */
    private static final Pattern MYSQL_HEADER = Pattern.compile("(?i)-- (mysql|mariadb) dump|mysqldump");

    private static final Pattern POSTGRESQL_HEADER = Pattern.compile("(?i)-- postgresql database dump");

    /** The URL schemes of libpq and of the MySQL clients, which the JDBC drivers spell with {@code jdbc:} first. */
    private static final Pattern CLIENT_URL =
            Pattern.compile("(?i)(postgres|postgresql|mysql|mariadb)://(?:([^:@/]*)(?::([^@/]*))?@)?(.*)");

    private SourceSet() {}

    /**
     * A libpq or MySQL client URL ({@code postgresql://host:5432/db?user=u}) given as a SOURCE:
     * refused with the JDBC URL that names the same database, before it is taken for a path (which
     * would fold its {@code //} and report no such file).
     */
    public static void refuseClientUrl(String arg) {
        Matcher m = CLIENT_URL.matcher(arg);
        if (!m.matches() || Files.exists(Path.of(arg.replace("://", "/")))) {
            return;
        }
        String scheme = m.group(1).toLowerCase(Locale.ROOT);
        String jdbcScheme = scheme.startsWith("postgres") ? "postgresql" : scheme;
        String rest = m.group(4);
        List<String> params = new ArrayList<>();
        if (m.group(2) != null && !m.group(2).isEmpty()) {
            params.add("user=" + m.group(2));
        }
        if (m.group(3) != null) {
            params.add("password=***");
        }
        if (!params.isEmpty()) {
            rest += (rest.contains("?") ? "&" : "?") + String.join("&", params);
        }
        throw new DumpFormatException(
                LiveSource.redacted(arg) + ": a " + (scheme.startsWith("postgres") ? "libpq" : "client")
                        + " URL; wastecheck reads JDBC URLs: did you mean 'jdbc:" + jdbcScheme + "://" + rest + "'?"
                        + (m.group(3) != null
                                ? " (or leave the password out and set "
                                        + (scheme.startsWith("postgres") ? "PGPASSWORD" : "MYSQL_PWD") + ")"
                                : ""));
    }

    /**
     * Refuses a set of inputs that is not one database's (see the class comment).
     *
     * @param fromFolder the inputs that came from expanding a folder
     */
    static void check(List<DetectedFile> files, Set<Path> fromFolder) throws IOException {
        refuseDuplicates(files);
        refuseMixedDialects(files);
        refuseStrays(files, fromFolder);
    }

    private static void refuseDuplicates(List<DetectedFile> files) throws IOException {
        List<DetectedFile> onDisk =
                files.stream().filter(f -> f.stream() == null).toList();
        for (int i = 0; i < onDisk.size(); i++) {
            for (int j = i + 1; j < onDisk.size(); j++) {
                Path a = onDisk.get(i).path();
                Path b = onDisk.get(j).path();
                boolean same = Files.isSameFile(a, b);
                if (same) {
                    throw new DumpFormatException(onDisk.get(j).name() + ": given twice"
                            + (onDisk.get(i).name().equals(onDisk.get(j).name())
                                    ? ""
                                    : " (as " + onDisk.get(i).name() + " too)")
                            + "; every row would count twice: give each file once");
                }
                // two equal CSV or Parquet files are two tables (named by their files); two equal dumps are one twice
                if (onDisk.get(i).kind().name().endsWith("_SCRIPT")
                        && onDisk.get(j).kind().name().endsWith("_SCRIPT")
                        && Files.size(a) == Files.size(b)
                        && Files.mismatch(a, b) < 0) {
                    throw new DumpFormatException(
                            onDisk.get(i).name() + " and " + onDisk.get(j).name()
                                    + " hold the same bytes (a copy of one dump); every row would count twice: give one of them");
                }
            }
        }
    }

    private static void refuseMixedDialects(List<DetectedFile> files) throws IOException {
        DetectedFile mysql = null;
        DetectedFile postgresql = null;
        for (DetectedFile f : files) {
            if (f.stream() != null) {
                continue;
            }
            if (f.kind() == SourceKind.MYSQL_SCRIPT && mysql == null && header(f, MYSQL_HEADER)) {
                mysql = f;
            } else if (f.kind() == SourceKind.POSTGRESQL_SCRIPT && postgresql == null && header(f, POSTGRESQL_HEADER)) {
                postgresql = f;
            }
        }
        if (mysql != null && postgresql != null) {
            throw new DumpFormatException(mysql.name() + " is a MySQL dump and " + postgresql.name()
                    + " a PostgreSQL dump (their headers say so); wastecheck reports on one database in one dialect: "
                    + "analyze them one at a time");
        }
    }

    /** A file of a folder read as CSV only because it is none of the other formats, beside dumps of another kind. */
    private static void refuseStrays(List<DetectedFile> files, Set<Path> fromFolder) {
        boolean otherKinds = files.stream().anyMatch(f -> f.kind() != SourceKind.CSV);
        if (!otherKinds) {
            return;
        }
        for (DetectedFile f : files) {
            if (f.kind() == SourceKind.CSV && fromFolder.contains(f.path()) && !f.nameSaysKind()) {
                throw new DumpFormatException(f.name() + ": not a dump, a database file, Parquet or JSON (it would be "
                        + "read as CSV only because it is none of those), in a folder of "
                        + kindOf(files) + "; move it out of the folder, or give the dumps one by one");
            }
        }
    }

    private static String kindOf(List<DetectedFile> files) {
        return files.stream().anyMatch(f -> f.kind().name().endsWith("_SCRIPT")) ? "SQL dumps" : "data files";
    }

    private static boolean header(DetectedFile f, Pattern header) throws IOException {
        try (InputStream in = f.open(new AtomicLong())) {
            byte[] head = in.readNBytes(4096);
            return header.matcher(new String(head, StandardCharsets.UTF_8)).find();
        }
    }
}
