package dev.wastecheck.traces.heat;

/**
 * Page hot-density ("No Bits Left Behind" §3.1): rows are laid onto fixed-size pages in their
 * physical order; the density is the average, over the pages that hold at least one hot tuple, of
 * the share of that page's tuples that are hot. A low density means the hot tuples lie scattered:
 * every page the buffer pool keeps for them is mostly cold.
 *
 * <p>Feed rows in physical order with {@link #row}; a row never spans pages, and a row larger than
 * a page fills a page of its own.
 */
public final class PageHotDensity {
    private final int pageBytes;
    private int used;
    private int rowsOnPage;
    private int hotOnPage;
    private long pages;
    private long pagesWithHot;
    private double densitySum;
    private long hotRows;
    private long rows;

    public PageHotDensity(int pageBytes) {
        this.pageBytes = pageBytes;
    }

    public void row(boolean hot, int rowBytes) {
        if (rowsOnPage > 0 && used + rowBytes > pageBytes) {
            closePage();
        }
        used += rowBytes;
        rowsOnPage++;
        rows++;
        if (hot) {
            hotOnPage++;
            hotRows++;
        }
    }

    private void closePage() {
        pages++;
        if (hotOnPage > 0) {
            pagesWithHot++;
            densitySum += (double) hotOnPage / rowsOnPage;
        }
        used = 0;
        rowsOnPage = 0;
        hotOnPage = 0;
    }

    private void finish() {
        if (rowsOnPage > 0) {
            closePage();
        }
    }

    /** Average share of hot tuples on the pages that hold any; 0 when no tuple is hot. */
    public double density() {
        finish();
        return pagesWithHot == 0 ? 0 : densitySum / pagesWithHot;
    }

    public long pages() {
        finish();
        return pages;
    }

    public long pagesWithHot() {
        finish();
        return pagesWithHot;
    }

    public long rows() {
        return rows;
    }

    public long hotRows() {
        return hotRows;
    }
}
