package dev.hoplock.spring.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.ownership.OwnershipEventPublisher;
import dev.hoplock.spring.ownership.OwnershipGroupCustomizer;
import dev.hoplock.spring.ownership.OwnershipMeterBinder;
import dev.hoplock.spring.leader.Candidacy;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Per-key ownership, when {@code hoplock.ownership.group} is set: the {@link HoplockOwnership} bean (this instance's
 * membership in the group, over the store {@code hoplock.backend} selects or the application's {@link Backend}),
 * joined and left with the context ({@link OwnershipLifecycle}), an {@link dev.hoplock.spring.ownership.OwnershipChangedEvent}
 * at every membership change, and with Micrometer the {@code hoplock.ownership.*} meters. The health contributor and
 * the {@code hoplock} endpoint show the members when the bean exists. Its settings are {@link OwnershipProperties}.
 */
@AutoConfiguration(after = HoplockAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "hoplock.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "hoplock.ownership.group")
@ConditionalOnBean(Backend.class)
@EnableConfigurationProperties(OwnershipProperties.class)
public final class HoplockOwnershipAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    HoplockOwnership hoplockOwnership(OwnershipProperties settings, Backend backend,
            ObjectProvider<BackendDecorator> decorators, ObjectProvider<OwnershipGroupCustomizer> customizers) {
        String name = settings.getGroup() == null ? "" : settings.getGroup().strip();
        return new HoplockOwnership(group(settings, BackendDecorator.applyAll(decorators.orderedStream().toList(),
                BackendDecorator.Primitive.OWNERSHIP, name, backend), customizers.orderedStream().toList()));
    }

    @Bean
    @ConditionalOnMissingBean(name = "hoplockOwnershipLifecycle")
    OwnershipLifecycle hoplockOwnershipLifecycle(HoplockOwnership ownership, ObjectProvider<Candidacy> candidacy) {
        return new OwnershipLifecycle(ownership, candidacy.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    OwnershipEventPublisher hoplockOwnershipEventPublisher(HoplockOwnership ownership,
            ApplicationEventPublisher publisher) {
        return new OwnershipEventPublisher(ownership, publisher);
    }

    /** The {@code hoplock.ownership.*} meters. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    @ConditionalOnBean(MeterRegistry.class)
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        OwnershipMeterBinder hoplockOwnershipMeterBinder(HoplockOwnership ownership) {
            return new OwnershipMeterBinder(ownership);
        }
    }

    /** Builds the group from the properties; a bad setting fails the start naming the property and the fix. */
    static OwnershipGroup group(OwnershipProperties settings, Backend backend) {
        return group(settings, backend, List.of());
    }

    /**
     * Builds the group from the properties, then lets {@code customizers} adjust the builder (a time source, executors);
     * a bad setting fails the start naming the property and the fix.
     */
    static OwnershipGroup group(OwnershipProperties settings, Backend backend,
            List<OwnershipGroupCustomizer> customizers) {
        String name = settings.getGroup() == null ? "" : settings.getGroup().strip();
        try {
            OwnershipGroup.Builder builder = OwnershipGroup.builder(backend, name).address(settings.getAddress());
            if (settings.getMemberId() != null) {
                builder.memberId(settings.getMemberId());
            }
            settings.applyTimingTo(builder::ttl, builder::renewInterval, builder::pollInterval,
                    builder::requestTimeout, builder::safetyMargin, builder::releaseTimeout);
            for (OwnershipGroupCustomizer customizer : customizers) {
                customizer.customize(name, builder);
            }
            return builder.build();
        } catch (InvalidSettingException e) {
            String property = "hoplock.ownership." + property(e.setting());
            throw new HoplockConfigurationException(property, "Invalid hoplock setting " + property + ": "
                    + e.getMessage() + ".", action(property, e.setting()), e);
        }
    }

    private static String property(String setting) {
        return switch (setting) {
            case "renewInterval" -> "renew";
            case "pollInterval" -> "poll";
            default -> setting.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
        };
    }

    private static String action(String property, String setting) {
        return switch (setting) {
            case "group" -> "Set " + property + " to a name of letters, digits, '.', '_' or '-' (segments separated"
                    + " by '/'), for example billing.";
            case "memberId" -> "Set " + property + " to a stable, non-empty id unique per instance (a pod name), or"
                    + " leave it unset to get host:pid:random.";
            case "ttl" -> "Set " + property + " to a positive duration of at least 1s, for example 30s.";
            default -> "Fix " + property + ", or leave it unset to use the default derived from the TTL ("
                    + Duration.ofSeconds(30).toSeconds() + "s unless set).";
        };
    }
}
