package dev.hoplock.s3.process;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** Every line every elector process printed, in the order the test received them, with the receipt time. */
final class EventLog {

    /** A line and when this JVM read it ({@link System#nanoTime()}). */
    record Received(EventLine line, long receivedNanos) {
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();

    void add(EventLine line) {
        received.add(new Received(line, System.nanoTime()));
    }

    List<Received> all() {
        return List.copyOf(received);
    }

    List<EventLine> lines(Predicate<EventLine> filter) {
        return received.stream().map(Received::line).filter(filter).toList();
    }

    /** The n-th (from 0) ACQUIRED line, if it has arrived. */
    Optional<Received> acquired(int n) {
        return received.stream().filter(r -> r.line().is("ACQUIRED")).skip(n).findFirst();
    }

    /** The first ACQUIRED line from index {@code from} on (counting ACQUIRED lines from 0) not from {@code excluded}. */
    Optional<Received> acquired(int from, String excluded) {
        return received.stream().filter(r -> r.line().is("ACQUIRED")).skip(from)
                .filter(r -> !r.line().owner().equals(excluded)).findFirst();
    }

    /** The last value of {@code field} in lines of {@code type} from {@code owner}, if any. */
    Optional<Long> last(String owner, String type, String field) {
        return lines(l -> l.owner().equals(owner) && l.is(type)).stream()
                .reduce((a, b) -> b).map(l -> l.number(field));
    }

    /** Whether {@code observer} has reported {@code holder} as the lease holder. */
    boolean observed(String observer, String holder) {
        return !lines(l -> l.owner().equals(observer) && l.is("OBSERVED") && holder.equals(l.fields().get("holder")))
                .isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        received.forEach(r -> text.append(r.line().fields()).append('\n'));
        return text.toString();
    }
}
