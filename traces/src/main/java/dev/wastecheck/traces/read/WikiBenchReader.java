package dev.wastecheck.traces.read;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * WikiBench URL traces (Urdaneta, Pierre, van Steen, "Wikipedia workload analysis for decentralized
 * hosting", 2009): {@code counter timestamp url flag}, e.g. {@code 929840 1190146243.303
 * http://en.wikipedia.org/wiki/Main_Page -}. Flag {@code save} marks an edit. URLs that are not
 * wiki pages (images, skins, API, special pages) are skipped and counted by kind.
 */
final class WikiBenchReader extends TraceReader {
    WikiBenchReader(Path file, BufferedReader in, TraceReadOptions options) {
        super(file, in, options);
    }

    @Override
    public TraceFormat format() {
        return TraceFormat.WIKIBENCH;
    }

    @Override
    protected boolean fill() throws IOException {
        String l;
        while ((l = readLine()) != null) {
            if (l.isBlank()) {
                continue;
            }
            String[] f = l.trim().split("\\s+");
            if (f.length != 4 || !(f[3].equals("-") || f[3].equals("save"))) {
                bad(lineNo(), l, "'counter timestamp url flag' with flag '-' or 'save'");
                continue;
            }
            long time;
            try {
                Long.parseLong(f[0]);
                time = (long) (Double.parseDouble(f[1]) * 1000);
            } catch (NumberFormatException e) {
                bad(lineNo(), l, "a numeric counter and a Unix timestamp in seconds");
                continue;
            }
            String url = f[2];
            String title = null;
            boolean edit = f[3].equals("save");
            int wiki = url.indexOf("/wiki/");
            if (url.contains("upload.wikimedia.org") || url.contains("/skins") || url.contains("/w/api.php")) {
                skip("not a page: media, skins or API");
                continue;
            }
            if (wiki >= 0) {
                title = url.substring(wiki + 6);
                int q = title.indexOf('?');
                if (q >= 0) {
                    title = title.substring(0, q);
                }
            } else if (url.contains("/w/index.php")) {
                int t = url.indexOf("title=");
                if (t >= 0) {
                    int amp = url.indexOf('&', t);
                    title = url.substring(t + 6, amp < 0 ? url.length() : amp);
                }
                if (url.contains("action=submit") || url.contains("action=edit")) {
                    edit = edit || url.contains("action=submit");
                }
            }
            int hash = title == null ? -1 : title.indexOf('#');
            if (hash >= 0) {
                title = title.substring(0, hash);
            }
            String decoded = title == null ? null : urlDecode(title);
            if (decoded == null || decoded.isEmpty()) {
                skip("not a page: no title in URL");
                continue;
            }
            Object[] name = pageName(decoded);
            if (name[1] == null) {
                skip("not a page: special or media namespace");
                continue;
            }
            emit(new PageRequest(
                    (Integer) name[0],
                    (String) name[1],
                    edit ? PageRequest.Action.EDIT : PageRequest.Action.VIEW,
                    1,
                    lineNo(),
                    time));
            return true;
        }
        return false;
    }
}
