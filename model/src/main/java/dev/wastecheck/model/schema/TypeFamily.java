package dev.wastecheck.model.schema;

/** What a declared column type is, whatever the dialect spells it. */
public enum TypeFamily {
    BOOLEAN,
    INTEGER,
    DECIMAL,
    FLOAT,
    DOUBLE,
    CHAR,
    VARCHAR,
    TEXT,
    BINARY,
    VARBINARY,
    BLOB,
    DATE,
    TIME,
    DATETIME,
    TIMESTAMP,
    YEAR,
    ENUM,
    SET,
    JSON,
    UUID,
    BIT,
    OTHER;

    /** Values arrive and are profiled as character or byte strings. */
    public boolean isString() {
        return switch (this) {
            case CHAR, VARCHAR, TEXT, BINARY, VARBINARY, BLOB -> true;
            default -> false;
        };
    }

    /** Byte strings: no character set, may hold any bytes. */
    public boolean isBinary() {
        return this == BINARY || this == VARBINARY || this == BLOB;
    }

    public boolean isTemporal() {
        return this == DATE || this == TIME || this == DATETIME || this == TIMESTAMP || this == YEAR;
    }
}
