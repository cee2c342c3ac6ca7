package dev.hoplock.test.process;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Every line of every child process of a test, in the order the test read them. Safe for the reader threads of
 * several children to add to while the test thread queries it; a query sees a consistent snapshot.
 */
public final class KeyValueLines {

    private final List<KeyValueLine> lines = new CopyOnWriteArrayList<>();

    /** Parses {@code text} and appends it. */
    public void add(String text) {
        lines.add(KeyValueLine.parse(text));
    }

    /** The lines read so far that {@code filter} accepts, in reading order. */
    public List<KeyValueLine> matching(Predicate<KeyValueLine> filter) {
        return lines.stream().filter(filter).toList();
    }

    /** Every line read so far, one per text line, for failure messages. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        lines.forEach(l -> text.append(l.fields()).append('\n'));
        return text.toString();
    }
}
