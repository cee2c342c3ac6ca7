package dev.hoplock.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The text of {@code BENCHMARKS.md} as the sections write it, line by line, and the list of what was not measured,
 * which the sections add to and the "Not measured" section prints. Appends only: nothing written is changed later.
 */
final class MarkdownPage {

    private final StringBuilder md = new StringBuilder();
    private final List<String> notMeasured = new ArrayList<>();

    /** Appends one line (and its line feed). */
    void line(String text) {
        md.append(text).append('\n');
    }

    /** Records a "not measured" sentence for the "Not measured, and limits" section. */
    void notMeasured(String text) {
        notMeasured.add(text);
    }

    /** The "not measured" sentences so far, in the order they were recorded. */
    List<String> notMeasured() {
        return List.copyOf(notMeasured);
    }

    /** The whole text written so far. */
    String text() {
        return md.toString();
    }
}
