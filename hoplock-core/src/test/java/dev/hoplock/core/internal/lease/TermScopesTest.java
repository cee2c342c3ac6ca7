package dev.hoplock.core.internal.lease;

import dev.hoplock.core.Lease;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scopes of one term ({@link Term}, {@link OpenScopes}, {@link Scope}): every open scope is told when the term
 * ends and its thread interrupted once if it asked; a closed scope is never told; a scope cannot open after the end;
 * the term is drained when it has ended and its last scope closed. Virtual time: the deadlines never pass by
 * themselves.
 */
class TermScopesTest {

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-01-01T00:00:00Z"));
    private final Term term = new Term(time, new Lease("k", "me", 1, time.wallNow().plusSeconds(30)),
            time.nanoTime() + Duration.ofSeconds(27).toNanos(), time.wallNow().plusSeconds(27).toEpochMilli());

    /** A scope of the term, which has not ended. */
    private Scope opened(boolean interruptOnLoss) {
        return requireNonNull(term.open(interruptOnLoss), "the term has ended");
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void theEndTellsEveryOpenScopeAndInterruptsOnlyThoseThatAsked() {
        Scope asked = opened(true);
        Scope quiet = opened(false);
        Scope closed = opened(true);
        closed.close();
        assertThat(term.openScopes()).isEqualTo(2);

        term.end();

        assertThat(asked.wasLost()).isTrue();
        assertThat(quiet.wasLost()).isTrue();
        assertThat(closed.wasLost()).as("closed before the end: never told").isFalse();
        assertThat(Thread.interrupted()).as("interrupted by the scope that asked").isTrue();
        assertThat(term.drained()).isNotDone();
        asked.close();
        assertThat(term.drained()).isNotDone();
        quiet.close();
        assertThat(term.drained()).isDone();
        assertThat(term.openScopes()).isZero();
    }

    @Test
    void noScopeOpensAfterTheEndAndATermWithoutScopesIsDrainedAtOnce() {
        term.end();
        assertThat(term.open(true)).isNull();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(term.drained()).isDone();
    }

    @Test
    void closingTwiceAndClosingInAnyOrderKeepsTheListRight() {
        Scope first = opened(false);
        Scope second = opened(false);
        Scope third = opened(false);
        second.close();
        second.close();
        assertThat(term.openScopes()).isEqualTo(2);
        first.close();
        third.close();
        assertThat(term.openScopes()).isZero();
        Scope again = opened(true);
        term.end();
        assertThat(again.wasLost()).isTrue();
        assertThat(first.wasLost() || second.wasLost() || third.wasLost()).isFalse();
        again.close();
        assertThat(term.drained()).isDone();
    }

    @Test
    void aScopeIsRefusedOnceTheMonotonicDeadlineHasPassedEvenIfNoThreadNoticed() {
        assertThat(term.open(false)).isNotNull().extracting(Scope::isLeading).isEqualTo(true);
        time.advance(Duration.ofSeconds(27));
        assertThat(term.open(false)).isNull();
    }
}
