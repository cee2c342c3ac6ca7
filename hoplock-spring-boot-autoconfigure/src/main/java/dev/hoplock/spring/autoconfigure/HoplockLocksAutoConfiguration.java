package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.leader.Candidacy;
import org.springframework.util.function.SingletonSupplier;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.lock.LocksCustomizer;
import dev.hoplock.spring.lock.WhenLockHeld;
import dev.hoplock.spring.lock.WithLockAdvisor;
import dev.hoplock.spring.lock.WithLockAttributeSource;
import dev.hoplock.spring.lock.WithLockListener;
import dev.hoplock.spring.lock.WithLockMethodValidator;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.util.Optional;

/**
 * Named locks: the {@link Locks} bean for programmatic use ({@link NamedLocks} over the same {@link Backend} as the
 * elections, whatever {@code hoplock.backend} chose, set by {@code hoplock.locks.*}; closed, releasing every lock it
 * holds, when the context closes) and {@code @WithLock}: its advisor (ordered by {@code hoplock.aspect-order}) and
 * the start-up validation of annotated methods. The advisor finds the locks at the first call, so that nothing is
 * created early while post-processors are registered. Its settings are {@link LockProperties}; a setting the locks
 * refuse (a negative {@code hoplock.locks.fair-turn}, say) fails the start naming the property.
 */
@AutoConfiguration(after = {HoplockAutoConfiguration.class, AopAutoConfiguration.class})
@ConditionalOnBooleanProperty(name = "hoplock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LockProperties.class)
@Import(HoplockLeaderOnlyAutoConfiguration.ProxyCreatorRegistrar.class)
public final class HoplockLocksAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(Locks.class)
    @ConditionalOnBean(Backend.class)
    NamedLocks hoplockLocks(Backend backend, LockProperties settings, ObjectProvider<BackendDecorator> decorators,
            ObjectProvider<LocksCustomizer> customizers) {
        NamedLocks.Builder builder = NamedLocks.builder(BackendDecorator.applyAll(decorators.orderedStream().toList(),
                BackendDecorator.Primitive.LOCK, "locks", backend));
        String property = "hoplock.locks";
        try {
            if (settings.getOwner() != null) {
                property = "hoplock.locks.owner";
                builder.owner(settings.getOwner());
            }
            property = "hoplock.locks.key-prefix";
            builder.keyPrefix(settings.getKeyPrefix());
            property = "hoplock.locks.request-timeout";
            builder.requestTimeout(settings.getRequestTimeout());
            property = "hoplock.locks.poll-interval";
            builder.pollInterval(settings.getPollInterval());
            property = "hoplock.locks.fair-turn";
            builder.fairTurn(settings.getFairTurn());
            property = "hoplock.locks";
            for (LocksCustomizer customizer : customizers.orderedStream().toList()) {
                customizer.customize(builder);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new HoplockConfigurationException(property, "Cannot configure hoplock's named locks (" + property
                    + "): " + e.getMessage() + ".", "Fix " + property + ".", e);
        }
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static WithLockAttributeSource hoplockWithLockAttributeSource(Environment environment,
            ConfigurableListableBeanFactory beans) {
        WhenLockHeld mode = Binder.get(environment).bind("hoplock.locks.when-held", WhenLockHeld.class)
                .orElse(WhenLockHeld.SKIP);
        Duration fairTurn = Binder.get(environment).bind("hoplock.locks.fair-turn", Duration.class)
                .orElse(Duration.ZERO);
        try {
            return new WithLockAttributeSource(mode, fairTurn, beans::resolveEmbeddedValue);
        } catch (IllegalArgumentException e) {
            throw new HoplockConfigurationException("hoplock.locks.fair-turn", "Cannot configure @WithLock"
                    + " (hoplock.locks.fair-turn): " + e.getMessage() + ".", "Fix hoplock.locks.fair-turn: 0s for no"
                    + " fair mode, or for example the interval of the calls times the number of instances less one.",
                    e);
        }
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static WithLockAdvisor hoplockWithLockAdvisor(WithLockAttributeSource source, ObjectProvider<Locks> locks,
            ObjectProvider<WithLockListener> listeners, ObjectProvider<Candidacy> candidacy,
            ObjectProvider<ObservationRegistry> observations, Environment environment) {
        int order = Binder.get(environment).bind("hoplock.aspect-order", Integer.class).orElse(0);
        // hoplock.act-when: the one Candidacy every primitive follows (no lock is taken while it is withdrawn).
        SingletonSupplier<Optional<Candidacy>> participation = SingletonSupplier.of(
                () -> Optional.ofNullable(candidacy.getIfAvailable()));
        return new WithLockAdvisor(source, locks::getObject, () -> listeners.orderedStream().toList(),
                () -> participation.obtain().flatMap(Candidacy::withdrawnBecause),
                HoplockObservationsAutoConfiguration.gateRegistry(observations, environment), order);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static WithLockMethodValidator hoplockWithLockMethodValidator(WithLockAttributeSource source) {
        return new WithLockMethodValidator(source);
    }
}
