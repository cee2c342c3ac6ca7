package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.record.LeaseRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RenewalForecastTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofSeconds(2);
    private static final Instant WRITTEN = Instant.parse("2026-12-03T10:00:00Z");
    private static final Handle V1 = new Handle("\"v1\"");

    private static Observation heldFrom(Instant written) {
        return new Observation.Present(V1, new LeaseRecord(3, written.plus(TTL), "a", "n"), 0);
    }

    private static Duration nextRead(Duration wait, Observation seen, Instant now) {
        return RenewalForecast.nextRead(wait, seen, now, TTL, RENEW, POLL);
    }

    @Test
    void readsAQuarterPollAfterTheNextRenewalIsDueWhenThatComesBeforeTheWait() {
        Instant now = WRITTEN.plus(RENEW).minusSeconds(1);
        assertThat(nextRead(POLL, heldFrom(WRITTEN), now)).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void keepsTheWaitWhenTheForecastIsLaterOrPast() {
        assertThat(nextRead(POLL, heldFrom(WRITTEN), WRITTEN.plusSeconds(1))).as("later than the wait").isEqualTo(POLL);
        assertThat(nextRead(POLL, heldFrom(WRITTEN), WRITTEN.plus(RENEW).plusSeconds(1)))
                .as("the forecast renewal did not come: the holder may be gone, the wait stands").isEqualTo(POLL);
        assertThat(nextRead(Duration.ofMillis(100), heldFrom(WRITTEN), WRITTEN.plus(RENEW).minusSeconds(1)))
                .as("never longer than the caller's wait").isEqualTo(Duration.ofMillis(100));
    }

    /** Review finding: with other ratios a read per renewal would be a read more per renewal; the poll stands. */
    @Test
    void forecastsOnlyWhenTheRenewIntervalIsAWholeNumberOfPolls() {
        Instant now = WRITTEN.plus(RENEW).minusSeconds(1);
        Duration poll3 = Duration.ofSeconds(3);
        assertThat(RenewalForecast.nextRead(poll3, heldFrom(WRITTEN), now, TTL, RENEW, poll3)).isEqualTo(poll3);
        Duration poll20 = Duration.ofSeconds(20);
        assertThat(RenewalForecast.nextRead(poll20, heldFrom(WRITTEN), now, TTL, RENEW, poll20)).isEqualTo(poll20);
        assertThat(RenewalForecast.renewalsFallOnPolls(Duration.ofMillis(2000).dividedBy(3),
                Duration.ofMillis(2000).dividedBy(15))).as("the defaults at TTL 2 s, rounded to the nanosecond").isTrue();
        assertThat(RenewalForecast.renewalsFallOnPolls(RENEW, RENEW)).isTrue();
    }

    @Test
    void forecastsNothingForAReleasedCorruptOrAbsentRecord() {
        Instant now = WRITTEN.plus(RENEW).minusSeconds(1);
        assertThat(nextRead(POLL, new Observation.Present(V1, LeaseRecord.released(3, "n"), 0), now)).isEqualTo(POLL);
        assertThat(nextRead(POLL, new Observation.Present(V1, null, 0), now)).isEqualTo(POLL);
        assertThat(nextRead(POLL, Observation.Absent.unwatched(), now)).isEqualTo(POLL);
    }

    @Test
    void anExpiryAtTheEdgeOfTimeKeepsTheWait() {
        Observation farAhead = new Observation.Present(V1, new LeaseRecord(3, Instant.MAX, "a", "n"), 0);
        assertThat(nextRead(POLL, farAhead, WRITTEN)).isEqualTo(POLL);
    }
}
