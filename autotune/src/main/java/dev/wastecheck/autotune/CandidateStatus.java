package dev.wastecheck.autotune;

import java.util.Locale;

/** What the search did with a candidate it replayed. */
public enum CandidateStatus {
    /** The one candidate its step keeps (successive halving's last rung, or a joint comparison's winner). */
    CHOSEN,
    /** Survived a rung of successive halving and went on to a longer prefix of the held-out events. */
    KEPT,
    /** Lost: its reason names the candidate it lost to and both costs. */
    REJECTED;

    /** As the report writes it: {@code chosen}, {@code kept}, {@code rejected}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return label();
    }
}
