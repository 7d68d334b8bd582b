package dev.wastecheck.e2e;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real Trino coordinator (io.trino:trino-server from Maven Central, unpacked by the {@code trino}
 * Maven profile) running on a JDK 24 or later, with the {@code tpch} catalog (rows made on the fly
 * by the TPC-H generator) and a {@code memory} catalog (which takes writes: the read-only test
 * needs a catalog that would otherwise accept one). Only the plugins it needs are loaded, so it
 * starts in seconds. One server per test JVM, stopped when the JVM exits.
 *
 * <p>Where things are: {@code trino.home} (the unpacked server) and {@code trino.java.home} (a JDK
 * 24+, else the first one found under /usr/lib/jvm), both set by the profile. Anything missing
 * fails the test with what to do: the profile never skips.
 */
final class TrinoServer {
    private static TrinoServer instance;

    private final Process process;
    private final int port;
    private final Path log;

    private TrinoServer() throws Exception {
        Path home = Path.of(required("trino.home", "the trino profile unpacks io.trino:trino-server there"));
        if (!Files.isDirectory(home.resolve("lib"))) {
            throw new IllegalStateException(home + " holds no Trino server (lib/ missing): run with -Ptrino");
        }
        Path java = javaHome().resolve("bin/java");
        Path dir = Files.createTempDirectory("wastecheck-trino-");
        Path plugins = Files.createDirectories(dir.resolve("plugin"));
        for (String plugin : List.of("tpch", "memory")) {
            linkPlugin(home, plugin, Files.createDirectories(plugins.resolve(plugin)));
        }
        Path catalogs = Files.createDirectories(dir.resolve("catalog"));
        Files.writeString(catalogs.resolve("tpch.properties"), "connector.name=tpch\n");
        Files.writeString(catalogs.resolve("memory.properties"), "connector.name=memory\n");
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Properties config = new Properties();
        config.setProperty("coordinator", "true");
        config.setProperty("node-scheduler.include-coordinator", "true");
        config.setProperty("http-server.http.port", String.valueOf(port));
        config.setProperty("discovery.uri", "http://127.0.0.1:" + port);
        config.setProperty("query.max-memory", "1GB");
        config.setProperty("query.max-memory-per-node", "1GB");
        config.setProperty("plugin.dir", plugins.toString());
        config.setProperty("catalog.config-dir", catalogs.toString());
        config.setProperty("node.environment", "test");
        config.setProperty("node.id", "wastecheck-test");
        try (var w = Files.newBufferedWriter(dir.resolve("config.properties"))) {
            config.store(w, null);
        }
        Files.writeString(dir.resolve("log.properties"), "io.trino=WARN\nio.airlift=WARN\n");
        log = dir.resolve("server.log");
        List<String> cmd = new ArrayList<>(List.of(
                java.toString(),
                "-Xmx2G",
                "-XX:+UseG1GC",
                "-Djdk.attach.allowAttachSelf=true",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Dnode.data-dir=" + Files.createDirectories(dir.resolve("data")),
                "-Dconfig=" + dir.resolve("config.properties"),
                "-Dlog.levels-file=" + dir.resolve("log.properties"),
                "-cp",
                home.resolve("lib") + "/*",
                "io.trino.server.TrinoServer"));
        process = new ProcessBuilder(cmd)
                .directory(dir.toFile()) // its request log (var/log) goes there, not into the source tree
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            process.destroy();
            try {
                process.waitFor(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process.destroyForcibly();
        }));
        waitUntilStarted();
    }

    /**
     * A plugin's jars, linked one by one. The tarball stores a plugin's copy of a jar that is also
     * in lib/ as a hard link, which Maven's unpacking writes as an empty file: such a jar is linked
     * to lib/'s copy.
     */
    private static void linkPlugin(Path home, String plugin, Path into) throws IOException {
        Path from = home.resolve("plugin").resolve(plugin);
        if (!Files.isDirectory(from)) {
            throw new IllegalStateException(from + " is missing: the trino profile unpacks the " + plugin + " plugin");
        }
        try (var jars = Files.list(from)) {
            for (Path jar : jars.toList()) {
                Path lib = home.resolve("lib").resolve(jar.getFileName());
                Path target = Files.size(jar) == 0 && Files.isRegularFile(lib) ? lib : jar;
                Files.createSymbolicLink(into.resolve(jar.getFileName()), target.toAbsolutePath());
            }
        }
    }

    static synchronized TrinoServer get() throws Exception {
        if (instance == null) {
            instance = new TrinoServer();
        }
        return instance;
    }

    /** {@code jdbc:trino://127.0.0.1:PORT/CATALOG/SCHEMA}. */
    String url(String catalog, String schema) {
        return "jdbc:trino://127.0.0.1:" + port + "/" + catalog + "/" + schema;
    }

    int port() {
        return port;
    }

    private void waitUntilStarted() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Trino exited with " + process.exitValue() + ":\n" + tail());
            }
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/v1/info")
                        .toURL()
                        .openConnection();
                c.setConnectTimeout(1000);
                c.setReadTimeout(1000);
                if (c.getResponseCode() == 200) {
                    String body = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    if (body.contains("\"starting\":false")) {
                        return;
                    }
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("Trino did not start within 3 minutes:\n" + tail());
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    private static String required(String property, String why) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (" + why + ")");
        }
        return v;
    }

    /**
     * {@code trino.java.home} when set, else the newest JDK under /usr/lib/jvm: it must be 24 or
     * later (Trino 476 needs it), or the test fails saying so.
     */
    static Path javaHome() throws IOException {
        String set = System.getProperty("trino.java.home");
        List<Path> candidates = new ArrayList<>();
        if (set != null && !set.isBlank()) {
            candidates.add(Path.of(set));
        } else if (Files.isDirectory(Path.of("/usr/lib/jvm"))) {
            try (var s = Files.list(Path.of("/usr/lib/jvm"))) {
                s.sorted().forEach(candidates::add);
            }
        }
        Path best = null;
        int bestVersion = 0;
        for (Path p : candidates) {
            int v = version(p);
            if (v > bestVersion) {
                best = p;
                bestVersion = v;
            }
        }
        if (best == null || bestVersion < 24) {
            throw new IllegalStateException("Trino 476 needs a JDK 24 or later and none was found"
                    + (set != null ? " at trino.java.home=" + set : " under /usr/lib/jvm")
                    + ": install one (Temurin 25) or pass -Dtrino.java.home=/path/to/jdk");
        }
        return best;
    }

    /** The major version a JDK's {@code release} file names, 0 when it is not a JDK. */
    private static int version(Path jdk) throws IOException {
        Path release = jdk.resolve("release");
        if (!Files.isRegularFile(release) || !Files.isExecutable(jdk.resolve("bin/java"))) {
            return 0;
        }
        for (String line : Files.readAllLines(release)) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                try {
                    return Integer.parseInt(v.split("[.+-]")[0]);
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }
}
