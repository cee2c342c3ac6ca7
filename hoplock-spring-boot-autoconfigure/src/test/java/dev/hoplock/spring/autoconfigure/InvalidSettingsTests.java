package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.spring.HoplockConfigurationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The property comes from the exception's setting field, the value and limit from its fields; no message parsing. */
class InvalidSettingsTests {

    private final ElectionDefinition jobs = new ElectionDefinition("jobs", "jobs", new ElectionProperties(),
            Map.of("renewInterval", "hoplock.elections.jobs.renew", "ttl", "hoplock.ttl"));

    @Test
    void aStructuredRefusalIsReportedFromItsFields() {
        InvalidSettingException refused = new InvalidSettingException("renewInterval", Duration.ofMillis(9500),
                Duration.ofSeconds(9), "must be shorter than the TTL minus the safety margin",
                "a message that is not read");

        HoplockConfigurationException report = InvalidSettings.translate(jobs, refused);

        assertThat(report.property()).isEqualTo("hoplock.elections.jobs.renew");
        assertThat(report.description()).isEqualTo("Invalid hoplock setting hoplock.elections.jobs.renew (election"
                + " 'jobs'): hoplock.elections.jobs.renew (9.5s) must be shorter than the TTL minus the safety margin"
                + " (limit: 9s).");
        assertThat(report.action()).contains("Set hoplock.elections.jobs.renew below", "hoplock.ttl");
        assertThat(report).hasCause(refused);
    }

    @Test
    void aMessageOnlyRefusalIsQuotedUnchanged() {
        InvalidSettingException refused = new InvalidSettingException("renewInterval", "renewInterval (PT9.5S) is bad");

        HoplockConfigurationException report = InvalidSettings.translate(jobs, refused);

        assertThat(report.property()).isEqualTo("hoplock.elections.jobs.renew");
        assertThat(report.description()).endsWith(": renewInterval (PT9.5S) is bad.");
    }
}
