package dev.wastecheck.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * DuckDB's JNI library, unpacked once beside the jar instead of into the temporary folder at
 * every start. DuckDB's JDBC driver (2.0.0.1, {@code DuckDBNative}) copies the 72 MB library it finds
 * at {@code /libduckdb_java.so_<os>_<arch>} in its jar to a new temporary file on each start and
 * loads that: 1.1 to 2.5 s of a start on a busy two-core machine, against 0.08-0.10 s to load a
 * copy already on disk (docs/benchmarks.md). When that resource is absent, the driver loads
 * {@code <os>_<arch>}'s library from the directory of the jar that holds it.
 *
 * <p>So the fat jar carries the libraries under {@code /duckdb-native/} instead (cli/pom.xml), and
 * this puts the one for this platform beside the jar before DuckDB is first touched, when it is
 * not there already with the jar entry's CRC-32. Run from the modules' classes (tests, the
 * benchmarks), the driver's own jar holds the library where the driver looks, and this does
 * nothing. A concurrent first start writes its own temporary copy and moves it into place.
 */
final class DuckDbLibrary {
    private DuckDbLibrary() {}

    /** Mirrors DuckDBNative's name for the platform's library: {@code libduckdb_java.so_linux_amd64}. */
    static String libraryName() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).trim();
        os = os.startsWith("windows")
                ? "windows"
                : os.startsWith("mac") ? "macos" : os.startsWith("linux") ? "linux" : os;
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT).trim();
        arch = switch (arch) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch;
        };
        return "libduckdb_java.so_" + os + "_" + arch;
    }

    /**
     * Puts the library beside the jar when it is carried under {@code /duckdb-native/}. Failing
     * (a read-only folder), says so on stderr: DuckDB then reports what it could not load, and
     * {@code -Djava.library.path} can name a folder holding the library.
     */
    static void unpackOnce() {
        String name = libraryName();
        URL packed = DuckDbLibrary.class.getResource("/duckdb-native/" + name);
        if (packed == null || DuckDbLibrary.class.getResource("/" + name) != null) {
            return; // not the fat jar, or the driver's jar still unpacks it itself
        }
        try {
            Path jar = Path.of(DuckDbLibrary.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            Path target = jar.resolveSibling(name);
            Path stamp = jar.resolveSibling(name + ".crc");
            String crc = packed.openConnection() instanceof JarURLConnection j
                    ? Long.toHexString(j.getJarEntry().getCrc())
                    : "";
            if (Files.exists(target)
                    && Files.exists(stamp)
                    && Files.readString(stamp).equals(crc)) {
                return;
            }
            Path tmp = Files.createTempFile(jar.getParent(), name, ".part");
            try (InputStream in = packed.openStream()) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            Files.writeString(stamp, crc);
        } catch (IOException | URISyntaxException | RuntimeException e) {
            System.err.println("wastecheck: could not unpack DuckDB's library beside the jar (" + e.getMessage()
                    + "); give -Djava.library.path=DIR with " + System.mapLibraryName("duckdb_java") + " in DIR");
        }
    }
}
