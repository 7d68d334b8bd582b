package dev.wastecheck.sources;

import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.sql.ProfileDialect;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A live database named by a JDBC URL ({@code jdbc:postgresql:}, {@code jdbc:mariadb:},
 * {@code jdbc:mysql:}, or {@code jdbc:trino://host:port/CATALOG/SCHEMA} for tables Trino reads
 * from a data lake or another store): what it speaks, how to connect, and how to name it in
 * messages without its password.
 *
 * <p>Credentials come from the URL ({@code ?user=u&password=p}, or {@code user:password@host});
 * when the URL holds no password, from the environment each engine's own client reads
 * ({@code PGPASSWORD} and {@code PGUSER}; {@code MYSQL_PWD} and {@code USER};
 * {@code TRINO_PASSWORD} and {@code TRINO_USER}, else {@code USER}), and for PostgreSQL from
 * {@code ~/.pgpass} (or {@code PGPASSFILE}), which its driver reads itself. A password is never
 * printed: {@link #display()} masks it.
 *
 * <p>MariaDB and MySQL servers are reached over a Unix socket with the driver's own option,
 * {@code jdbc:mariadb://localhost/DB?localSocket=/run/mysqld/mysqld.sock} (the driver opens it
 * through JNA). PostgreSQL sockets are refused with what to use instead ({@link #POSTGRESQL_SOCKET}).
 *
 * @param url     the URL as the user gave it
 * @param dialect the engine the URL names
 */
public record LiveSource(String url, Dialect dialect) {

    /**
     * Why a PostgreSQL Unix socket is refused: pgjdbc reaches one only through junixsocket's
     * {@code AFUNIXSocketFactory}, a native library per platform that wastecheck does not bundle.
     * MariaDB and MySQL sockets ({@code localSocket=}) work: their driver opens them itself.
     */
    static final String POSTGRESQL_SOCKET = "PostgreSQL over a Unix socket is not supported (its driver needs "
            + "junixsocket, which wastecheck does not bundle); connect over TCP instead: "
            + "jdbc:postgresql://localhost:5432/DB (PostgreSQL's default listen_addresses is localhost), "
            + "or forward the socket to a local port: socat TCP-LISTEN:15432,bind=127.0.0.1,fork "
            + "UNIX-CONNECT:/var/run/postgresql/.s.PGSQL.5432 and use jdbc:postgresql://127.0.0.1:15432/DB";

    /** True for an argument that is a JDBC URL rather than a file. */
    public static boolean isUrl(String arg) {
        return arg.regionMatches(true, 0, "jdbc:", 0, 5);
    }

    /**
     * @throws DumpFormatException for a URL of an engine that cannot be a live source (yet)
     */
    public static LiveSource parse(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:postgresql:")) {
            if (lower.contains("org.newsclub") || lower.matches("(?s).*[?&]host=/.*")) {
                throw new DumpFormatException(redacted(url) + ": " + POSTGRESQL_SOCKET);
            }
            return new LiveSource(url, Dialect.POSTGRESQL);
        }
        if (lower.startsWith("jdbc:mariadb:") || lower.startsWith("jdbc:mysql:")) {
            return new LiveSource(url, Dialect.MYSQL);
        }
        if (lower.startsWith("jdbc:trino:")) {
            return new LiveSource(url, Dialect.TRINO);
        }
        throw new DumpFormatException(redacted(url)
                + ": expected a jdbc:postgresql:, jdbc:mariadb:, jdbc:mysql: or jdbc:trino: URL (a live source); "
                + "other engines are read from their files or dumps");
    }

    /** How the profile's queries are written for this server. */
    public ProfileDialect profileDialect() {
        return switch (dialect) {
            case POSTGRESQL -> ProfileDialect.POSTGRESQL;
            case TRINO -> ProfileDialect.TRINO;
            default -> ProfileDialect.MARIADB;
        };
    }

    /** The URL for messages and reports: any password replaced by {@code ***}. */
    public String display() {
        return redacted(url);
    }

    /** A URL with its password parameter and any {@code user:password@} part masked. */
    public static String redacted(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("(//[^/@:]*:)[^/@]*@", "$1***@");
    }

    /**
     * The URL the driver is given: MariaDB's driver takes {@code jdbc:mysql:} only when told to,
     * and the protocol is the same.
     */
    public String driverUrl() {
        return url.toLowerCase(Locale.ROOT).startsWith("jdbc:mysql:")
                ? "jdbc:mariadb:" + url.substring("jdbc:mysql:".length())
                : url;
    }

    /** Connection properties: the user and password the URL lacks, from the environment. */
    public Properties properties(Map<String, String> env) {
        Properties p = new Properties();
        boolean hasUser = url.matches("(?is).*[?&;]user=.*") || url.matches("(?s)jdbc:\\w+://[^/@]+@.*");
        boolean hasPassword = url.matches("(?is).*[?&;]password=.*") || url.matches("(?s)jdbc:\\w+://[^/@]*:[^/@]*@.*");
        String userVar = switch (dialect) {
            case POSTGRESQL -> "PGUSER";
            case TRINO -> "TRINO_USER";
            default -> "USER";
        };
        String passwordVar = switch (dialect) {
            case POSTGRESQL -> "PGPASSWORD";
            case TRINO -> "TRINO_PASSWORD";
            default -> "MYSQL_PWD";
        };
        if (!hasUser && env.get(userVar) != null) {
            p.setProperty("user", env.get(userVar));
        }
        if (!hasPassword && env.get(passwordVar) != null) {
            p.setProperty("password", env.get(passwordVar));
        }
        if (dialect == Dialect.TRINO && !hasUser && p.getProperty("user") == null) {
            // Trino asks every client for a user name (for access control and its query list)
            String user = env.getOrDefault("USER", "wastecheck");
            p.setProperty("user", user);
        }
        if (dialect == Dialect.MYSQL) {
            // TINYINT(1) and YEAR read as the numbers they hold, as mysqldump writes them
            if (!url.toLowerCase(Locale.ROOT).contains("tinyint1isbit")) {
                p.setProperty("tinyInt1isBit", "false");
            }
            if (!url.toLowerCase(Locale.ROOT).contains("yearisdatetype")) {
                p.setProperty("yearIsDateType", "false");
            }
        }
        return p;
    }
}
