package dev.wastecheck.model.access;

/**
 * How a statement touches a table. A point lookup binds every column of a unique key (primary key
 * or unique index) by equality; a range binds a prefix of an index (equalities, then at most one
 * range); a scan binds no index prefix.
 */
public enum Operation {
    POINT_LOOKUP,
    RANGE,
    SCAN,
    INSERT,
    UPDATE,
    DELETE
}
