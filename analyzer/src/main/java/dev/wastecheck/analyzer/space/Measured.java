package dev.wastecheck.analyzer.space;

import dev.wastecheck.analyzer.report.IndexSpace;
import dev.wastecheck.analyzer.report.TableSpace;
import java.util.ArrayList;
import java.util.List;

/** What one engine says of one table's space, before the profile's predictions join it. */
final class Measured {
    final String table;
    long dataBytes;
    long rowBytes = -1;
    long freeBytes;
    long deadBytes;
    String method;
    boolean estimated;
    String caveat;
    long engineBytes = -1;
    TableSpace.Headroom headroom;
    final List<IndexSpace> indexes = new ArrayList<>();

    Measured(String table) {
        this.table = table;
    }
}
