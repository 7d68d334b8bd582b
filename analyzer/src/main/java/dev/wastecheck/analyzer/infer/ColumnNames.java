package dev.wastecheck.analyzer.infer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a column's name says about its values, where the values alone cannot: a counter only
 * grows, a phone number is an identifier written with digits, a user name is free text. Names are
 * split into words ({@code rc_user_text} -> rc, user, text; {@code PostalCode} -> postal, code)
 * and the rules look at whole words, so {@code old_text} is not an "ext"(ension). The rules and
 * why each exists are in docs/analyze.md.
 */
public final class ColumnNames {
    private ColumnNames() {}

    /** The name's words, lower case: split at underscores, digits and lower-to-upper case changes. */
    public static List<String> words(String name) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean boundary = c == '_' || c == '-' || c == ' ' || c == '.';
            if (boundary) {
                flush(w, out);
                continue;
            }
            if (Character.isUpperCase(c) && w.length() > 0 && Character.isLowerCase(w.charAt(w.length() - 1))) {
                flush(w, out);
            }
            w.append(Character.toLowerCase(c));
        }
        flush(w, out);
        return out;
    }

    private static void flush(StringBuilder w, List<String> out) {
        if (w.length() > 0) {
            out.add(w.toString());
            w.setLength(0);
        }
    }

    private static String last(String name) {
        List<String> w = words(name);
        return w.isEmpty() ? "" : w.get(w.size() - 1);
    }

    private static boolean anyWord(String name, Set<String> set) {
        return words(name).stream().anyMatch(set::contains);
    }

    private static final Set<String> COUNTER_LAST = Set.of(
            "count",
            "counter",
            "cnt",
            "views",
            "hits",
            "total",
            "totals",
            "edits",
            "editcount",
            "visits",
            "downloads",
            "clicks",
            "plays");
    private static final Set<String> COUNTER_FIRST = Set.of("num", "total", "n");

    /**
     * Named for counting ({@code *_count}, {@code page_counter}, {@code ss_total_views},
     * {@code user_editcount}, {@code hits}), or one of MediaWiki's statistics ({@code site_stats},
     * {@code category}'s page, subcategory and file counts): a total that only grows, whose
     * snapshot maximum says little about next year's.
     */
    public static boolean isCounter(String table, String column) {
        List<String> w = words(column);
        if (w.isEmpty()) {
            return false;
        }
        String t = table.toLowerCase(Locale.ROOT);
        if (t.equals("site_stats") && !column.equalsIgnoreCase("ss_row_id")) {
            return true;
        }
        if (t.equals("category")
                && Set.of("cat_pages", "cat_subcats", "cat_files").contains(column.toLowerCase(Locale.ROOT))) {
            return true;
        }
        String lastWord = w.get(w.size() - 1);
        return COUNTER_LAST.contains(lastWord)
                || lastWord.endsWith("count")
                || lastWord.endsWith("counter")
                || (w.size() > 1
                        && COUNTER_FIRST.contains(w.get(0))
                        && !w.get(w.size() - 1).equals("id"));
    }

    private static final Set<String> SIZE_LAST = Set.of("len", "size", "bytes", "octets", "filesize");

    /**
     * Named for the size of a payload ({@code rev_len}, {@code page_len}, {@code img_size},
     * {@code content_length}, {@code Bytes}): a text's or a file's byte count, whose largest is set
     * by what users store next (the next article, the next upload), not by the snapshot's. A lone
     * {@code length} is left out: Sakila's {@code film.length} is minutes.
     */
    public static boolean isSize(String column) {
        List<String> w = words(column);
        if (w.isEmpty()) {
            return false;
        }
        String lastWord = w.get(w.size() - 1);
        return SIZE_LAST.contains(lastWord) || (lastWord.equals("length") && w.size() > 1);
    }

    private static final Set<String> IDENTIFIER_WORDS = Set.of(
            "phone",
            "telephone",
            "tel",
            "fax",
            "mobile",
            "cell",
            "zip",
            "zipcode",
            "postal",
            "postcode",
            "plz",
            "extension",
            "ext",
            "code",
            "sku",
            "isbn",
            "issn",
            "ean",
            "upc",
            "gtin",
            "iban",
            "bic",
            "swift",
            "ssn",
            "vat",
            "account",
            "acct",
            "pin",
            "nr",
            "no",
            "number",
            "msisdn",
            "imei");

    /**
     * Names a string that is an identifier written with digits (phone numbers, postal codes,
     * extensions, codes, account numbers): it compares and sorts as text, and its leading zeros,
     * signs and widths matter, so it stays a string whatever its values look like today.
     */
    public static boolean isIdentifierString(String column) {
        return anyWord(column, IDENTIFIER_WORDS);
    }

    private static final Set<String> FREE_TEXT_WORDS = Set.of(
            "name",
            "names",
            "text",
            "title",
            "titles",
            "comment",
            "comments",
            "summary",
            "description",
            "desc",
            "note",
            "notes",
            "email",
            "mail",
            "url",
            "uri",
            "link",
            "href",
            "address",
            "label",
            "message",
            "msg",
            "reason",
            "user",
            "username",
            "author",
            "login",
            "nick",
            "nickname",
            "path",
            "file",
            "filename",
            "ip",
            "host",
            "agent",
            "hash",
            "sha1",
            "sha",
            "md5",
            "token",
            "password",
            "subject",
            "body",
            "content",
            "propname",
            "city",
            "street",
            "company");

    /**
     * Names free text: names, titles, comments, e-mail addresses, URLs, user names. Whatever few
     * values such a column holds today, tomorrow's are new: it is never an ENUM.
     */
    public static boolean isFreeText(String column) {
        String lower = column.toLowerCase(Locale.ROOT);
        return anyWord(column, FREE_TEXT_WORDS)
                || lower.endsWith("name")
                || lower.endsWith("text")
                || lower.endsWith("title");
    }

    private static final Set<String> PAYLOAD_WORDS = Set.of(
            "serialized",
            "serialised",
            "blob",
            "json",
            "data",
            "value",
            "values",
            "props",
            "properties",
            "params",
            "parameters",
            "options",
            "payload",
            "meta",
            "metadata",
            "settings",
            "config",
            "cache",
            "object",
            "array",
            "state");

    /**
     * Names a payload the application encodes (PHP {@code serialize()}, JSON, a property's value):
     * a column whose values happen to be numbers today still holds whatever is serialized next.
     */
    public static boolean isPayload(String column) {
        return anyWord(column, PAYLOAD_WORDS);
    }

    /** Words (and, for the long ones, parts of words: {@code notificationtimestamp}) of a time that is not a row's creation. */
    private static final Set<String> NOT_CREATION = Set.of(
            "last", "birth", "end", "due", "return", "valid", "until", "seen", "sent", "links", "login", "access");

    private static final List<String> NOT_CREATION_PARTS = List.of(
            "update",
            "touched",
            "modified",
            "changed",
            "expir",
            "notification",
            "deleted",
            "deadline",
            "authenticated",
            "accessed");
    private static final Set<String> CREATION_WORDS = Set.of(
            "timestamp",
            "created",
            "creation",
            "create",
            "inserted",
            "registration",
            "registered",
            "date",
            "time",
            "at",
            "on");

    /**
     * Names the moment a row was created ({@code rev_timestamp}, {@code created_at},
     * {@code InvoiceDate}, {@code user_registration}), not when it last changed ({@code page_touched},
     * {@code last_update}): the rows' ids per day under it measure how fast a key grows.
     */
    public static boolean isCreationTime(String column) {
        List<String> w = words(column);
        String lower = column.toLowerCase(Locale.ROOT);
        if (w.isEmpty()
                || w.stream().anyMatch(NOT_CREATION::contains)
                || NOT_CREATION_PARTS.stream().anyMatch(lower::contains)) {
            return false;
        }
        String lastWord = w.get(w.size() - 1);
        return CREATION_WORDS.contains(lastWord)
                || lastWord.endsWith("timestamp")
                || lastWord.endsWith("date")
                || w.contains("created")
                || w.contains("registration");
    }

    private static final Set<String> TIME_WORDS = Set.of(
            "timestamp",
            "time",
            "date",
            "day",
            "touched",
            "updated",
            "update",
            "registration",
            "registered",
            "authenticated",
            "expiry",
            "expires",
            "created",
            "modified",
            "at",
            "on",
            "when",
            "birthday",
            "dob",
            "since",
            "until",
            "start",
            "end",
            "begin");

    /** Names a date or a time: its values are dates by meaning, however few there are. */
    public static boolean isTimeName(String column) {
        List<String> w = words(column);
        return w.stream()
                .anyMatch(x ->
                        TIME_WORDS.contains(x) || x.endsWith("timestamp") || x.endsWith("date") || x.endsWith("time"));
    }

    /** Names a calendar day ({@code BirthDate}, {@code invoice_date}, {@code due_on}), not a moment. */
    public static boolean isDayName(String column) {
        String l = last(column);
        return (l.endsWith("date") || l.equals("day") || l.equals("on") || l.equals("dob") || l.equals("birthday"))
                && !l.endsWith("update");
    }

    /** Named like an identifier: {@code id}, {@code *_id}, {@code *Id}. */
    public static boolean isIdName(String column) {
        String l = last(column);
        return l.equals("id") || l.equals("oldid") || l.equals("logid") || l.equals("uid");
    }

    /** A MediaWiki namespace number: {@code page_namespace}, {@code pl_namespace}, {@code smw_namespace}, ... */
    public static boolean isNamespace(String column) {
        String l = last(column);
        return l.equals("namespace") || l.endsWith("namespace");
    }
}
