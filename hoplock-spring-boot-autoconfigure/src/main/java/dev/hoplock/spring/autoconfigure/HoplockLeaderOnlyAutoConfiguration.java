package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.leader.OnNonLeader;
import dev.hoplock.spring.leader.LeaderOnlyAdvisor;
import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.leader.LeaderOnlyListener;
import dev.hoplock.spring.leader.LeaderOnlyMethodValidator;
import org.springframework.aop.config.AopConfigUtils;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * {@code @LeaderOnly}: the advisor, the gate resolution and the start-up validation of annotated methods.
 *
 * <p>Why a plain Spring AOP advisor and not an {@code @Aspect}: it is the mechanism {@code @Transactional} uses, so it
 * works with whichever auto-proxy creator the application has (AspectJ-style or the infrastructure one), needs no
 * AspectJ weaver, and sorts against other advisors by a plain order ({@code hoplock.aspect-order}). If the application
 * has no auto-proxy creator at all ({@code spring.aop.auto=false} and no {@code @Enable...} that registers one), this
 * registers the infrastructure one with class-based proxies, as {@code @EnableTransactionManagement} would; a
 * {@code @LeaderOnly} that still cannot apply fails the start ({@link LeaderOnlyMethodValidator}).
 *
 * <p>The beans are static and infrastructure-role, and the advisor finds the electors at the first call, so that
 * nothing is created early while post-processors are registered.
 */
@AutoConfiguration(after = {HoplockAutoConfiguration.class, AopAutoConfiguration.class})
@ConditionalOnBooleanProperty(name = "hoplock.enabled", matchIfMissing = true)
@Import(HoplockLeaderOnlyAutoConfiguration.ProxyCreatorRegistrar.class)
public final class HoplockLeaderOnlyAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LeaderOnlyAttributeSource hoplockLeaderOnlyAttributeSource(Environment environment) {
        Binder binder = Binder.get(environment);
        OnNonLeader mode = binder.bind("hoplock.leader-only.on-non-leader", OnNonLeader.class)
                .orElse(OnNonLeader.SKIP);
        boolean all = binder.bind("hoplock.scheduling.leader-only-all", Boolean.class).orElse(false);
        return new LeaderOnlyAttributeSource(mode, all);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LeaderOnlyAdvisor hoplockLeaderOnlyAdvisor(LeaderOnlyAttributeSource source,
            ObjectProvider<HoplockElections> elections, ObjectProvider<LeaderOnlyListener> listeners,
            ObjectProvider<HoplockOwnership> ownership, ObjectProvider<ObservationRegistry> observations,
            Environment environment) {
        int order = Binder.get(environment).bind("hoplock.aspect-order", Integer.class).orElse(0);
        return new LeaderOnlyAdvisor(source, elections::getObject, () -> listeners.orderedStream().toList(),
                ownership::getIfAvailable, HoplockObservationsAutoConfiguration.gateRegistry(observations, environment),
                order);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LeaderOnlyMethodValidator hoplockLeaderOnlyMethodValidator(LeaderOnlyAttributeSource source,
            ObjectProvider<HoplockElections> elections, ObjectProvider<HoplockOwnership> ownership) {
        return new LeaderOnlyMethodValidator(source, elections, ownership);
    }

    /** Registers the infrastructure auto-proxy creator (class-based proxies) only when the application has none. */
    static final class ProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            if (!registry.containsBeanDefinition(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME)) {
                AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
                AopConfigUtils.forceAutoProxyCreatorToUseClassProxying(registry);
            }
        }
    }
}
