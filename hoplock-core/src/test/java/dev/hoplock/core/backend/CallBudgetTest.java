package dev.hoplock.core.backend;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallBudgetTest {

    @Test
    void theCallersTimeoutIsCappedByTheStoresRequestTimeout() throws BackendException {
        assertThat(CallBudget.forCall(Duration.ofSeconds(30), Duration.ofSeconds(10), () -> "x").budget())
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(CallBudget.forCall(Duration.ofMillis(700), Duration.ofSeconds(10), () -> "x").budget())
                .isEqualTo(Duration.ofMillis(700));
    }

    @Test
    void aCallerWithNoTimeLeftIsRefusedBeforeAnythingIsSentNamingTheTarget() {
        assertThatThrownBy(() -> CallBudget.forCall(Duration.ZERO, Duration.ofSeconds(10), () -> "a read of 'leader'"))
                .isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.TRANSIENT))
                .hasMessage("no time left for a read of 'leader' (timeout 0 ms); nothing was sent");
        assertThatThrownBy(() -> CallBudget.forCall(Duration.ofMillis(-5), Duration.ofSeconds(10), () -> "x"))
                .isInstanceOf(BackendException.class);
    }

    @Test
    void aSpentBudgetHasNothingLeftAndNeverANegativeRemainder() {
        CallBudget spent = CallBudget.of(Duration.ZERO);
        assertThat(spent.hasTimeLeft()).isFalse();
        assertThat(spent.remaining()).isEqualTo(Duration.ZERO);
        assertThat(spent.millisLeft()).isZero();
        assertThat(spent.remainingAtLeast(Duration.ofMillis(1))).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aFreshBudgetHasAtMostItsWholeBudgetLeftRoundedUpToMilliseconds() {
        CallBudget budget = CallBudget.of(Duration.ofSeconds(5));
        assertThat(budget.hasTimeLeft()).isTrue();
        assertThat(budget.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(5));
        assertThat(budget.millisLeft()).isBetween(1L, 5_000L);
        assertThat(budget.remainingAtLeast(Duration.ofSeconds(60))).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aNegativeBudgetIsAProgrammingError() {
        assertThatThrownBy(() -> CallBudget.of(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
