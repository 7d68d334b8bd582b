package dev.wastecheck.model;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real third-party databases at ../shared/data from the project root, for the tests tagged
 * {@code real-data} (run with {@code -Preal-data}; .ci/run does). A missing folder or file fails
 * the test: it never skips.
 */
public final class RealData {
    private RealData() {}

    public static Path dir() {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve("mvnw"))) {
            root = root.getParent();
        }
        if (root == null) {
            throw new AssertionError(
                    "cannot find the project root (mvnw) above " + Path.of("").toAbsolutePath());
        }
        Path data = root.resolve("../shared/data").normalize();
        if (!Files.isDirectory(data)) {
            throw new AssertionError(data + " is not here: the real-data tests need it");
        }
        return data;
    }

    public static Path file(String relative) {
        Path f = dir().resolve(relative);
        if (!Files.exists(f)) {
            throw new AssertionError("missing real data: " + f);
        }
        return f;
    }
}
