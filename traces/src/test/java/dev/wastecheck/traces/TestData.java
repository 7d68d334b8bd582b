package dev.wastecheck.traces;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/** The shared real data (../shared/data from the project root, see its README). */
public final class TestData {
    private TestData() {}

    public static Path dir() {
        for (Path p : new Path[] {Path.of("..", "shared", "data"), Path.of("..", "..", "shared", "data")}) {
            if (Files.isDirectory(p)) {
                return p.toAbsolutePath().normalize();
            }
        }
        Assumptions.abort("../shared/data is not here");
        return null;
    }

    public static Path file(String relative) {
        Path f = dir().resolve(relative);
        Assumptions.assumeTrue(Files.exists(f), relative + " is not here");
        return f;
    }
}
