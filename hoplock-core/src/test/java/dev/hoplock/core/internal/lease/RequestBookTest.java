package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.internal.runtime.LoopTimers;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Rule 3 (bounded requests) on its own, in virtual time. */
class RequestBookTest {

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T10:00:00Z"));
    private final Object lock = new Object();
    private final List<String> handled = new ArrayList<>();
    private int beforeHandling;
    private final RequestBook book = new RequestBook(lock, new LoopTimers(time, time, "t", e -> { }), () -> "store",
            () -> beforeHandling++, (activity, body) -> body.run());

    private void send(CompletableFuture<String> answer, Duration timeout) {
        synchronized (lock) {
            book.send(() -> answer, timeout, (value, failure) ->
                    handled.add(failure == null ? "value " + value : failure.kind() + " " + failure.getMessage()));
        }
    }

    @Test
    void anAnswerWithinTheTimeoutIsHandledOnce() {
        CompletableFuture<String> answer = new CompletableFuture<>();
        send(answer, Duration.ofSeconds(5));
        assertThat(book.busy()).isTrue();
        CompletableFuture<Void> idle = book.idle();
        answer.complete("x");
        time.advance(Duration.ofSeconds(10));
        assertThat(handled).containsExactly("value x");
        assertThat(beforeHandling).isEqualTo(1);
        assertThat(book.busy()).isFalse();
        assertThat(idle).isDone();
    }

    @Test
    void anAnswerAfterTheTimeoutIsIgnored() {
        CompletableFuture<String> answer = new CompletableFuture<>();
        send(answer, Duration.ofSeconds(5));
        time.advance(Duration.ofSeconds(5));
        answer.complete("late");
        assertThat(handled).containsExactly("TRANSIENT no answer from store within 5s");
        assertThat(book.busy()).isFalse();
    }

    @Test
    void anAnswerToAnEarlierRequestIsIgnored() {
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        send(first, Duration.ofSeconds(5));
        send(second, Duration.ofSeconds(5));
        first.complete("stale");
        second.complete("fresh");
        assertThat(handled).containsExactly("value fresh");
    }

    @Test
    void aFailureIsHandedOnAsABackendExceptionAndARequestThatThrowsCountsAsFailed() {
        CompletableFuture<String> answer = new CompletableFuture<>();
        send(answer, Duration.ofSeconds(5));
        answer.completeExceptionally(new IllegalStateException("boom"));
        synchronized (lock) {
            book.send(() -> {
                throw new IllegalArgumentException("thrown");
            }, Duration.ofSeconds(5), (value, failure) -> handled.add(failure instanceof BackendException
                    ? "failed: " + failure.getMessage() : "value " + value));
        }
        assertThat(handled).containsExactly(
                "TRANSIENT request to store failed unexpectedly: java.lang.IllegalStateException: boom",
                "failed: request to store failed unexpectedly: java.lang.IllegalArgumentException: thrown");
    }
}
