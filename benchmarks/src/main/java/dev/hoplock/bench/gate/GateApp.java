package dev.hoplock.bench.gate;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnly;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A Spring Boot application with the hoplock starter's auto-configuration, one election over an in-memory store
 * shared by every context of the JVM ({@link #STORE}), a bean with a {@code @LeaderOnly} method and a bean with the
 * same method without the annotation, and the floor: a bean with the same method proxied by the same auto-proxy
 * creator through an advisor whose interceptor only proceeds ({@link NoopAdvised}), and the floor of a correct gate: a
 * bean proxied alike through an advisor that does only what the guarantees need ({@link MinimalScope}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class GateApp {

    /** One store for the leader's and the follower's contexts, as S3 would be for two processes. */
    static final InMemoryBackend STORE = new InMemoryBackend();

    @Bean
    Backend hoplockStore() {
        return STORE;
    }

    @Bean
    GatedWork gatedWork() {
        return new GatedWork();
    }

    /**
     * The no-op advisor: matched the way the gate's advisor is (an annotation on the method), an infrastructure bean
     * like it (so the same auto-proxy creator applies it), and doing nothing but proceed.
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static Advisor noopAdvisor() {
        MethodInterceptor proceed = MethodInvocation::proceed;
        return new DefaultPointcutAdvisor(AnnotationMatchingPointcut.forMethodAnnotation(NoopAdvised.class), proceed);
    }

    @Bean
    NoopAdvisedWork noopAdvisedWork() {
        return new NoopAdvisedWork();
    }

    /**
     * The minimal correct gate, the leader's floor: an advisor matched and proxied like the others whose interceptor
     * does only what the guarantees of a leader-only call need and nothing a gate adds for its users: it opens a scope
     * of the default election ({@link Elector#tryEnterLeaderScope(boolean)}: both clocks against both deadlines, rule
     * E2, and the scope listed so that the end of the term interrupts the call and a release waits for it, E7), runs
     * the method, closes the scope and clears the interrupt the scope delivered. No gate lookup per method, no
     * {@code LeaderContextHolder}, no interrupt rule for nested calls, no listener, no observation.
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static Advisor minimalScopeAdvisor(ObjectProvider<HoplockElections> elections) {
        return new DefaultPointcutAdvisor(AnnotationMatchingPointcut.forMethodAnnotation(MinimalScope.class),
                new MinimalScopeInterceptor(elections));
    }

    @Bean
    MinimalScopeWork minimalScopeWork() {
        return new MinimalScopeWork();
    }

    @Bean
    PlainWork plainWork() {
        return new PlainWork();
    }

    /** The method under test, gated. */
    public static class GatedWork {
        @LeaderOnly
        public String work(String input) {
            return input;
        }
    }

    /** The same method, not annotated: the bean is not proxied. */
    public static class PlainWork {
        public String work(String input) {
            return input;
        }
    }

    /** Marks the methods the no-op advisor applies to. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface NoopAdvised {
    }

    /** The same method, proxied through the no-op advisor only. */
    public static class NoopAdvisedWork {
        @NoopAdvised
        public String work(String input) {
            return input;
        }
    }

    /** Marks the methods the minimal gate applies to. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface MinimalScope {
    }

    /** The same method, proxied through the minimal gate only. */
    public static class MinimalScopeWork {
        @MinimalScope
        public String work(String input) {
            return input;
        }
    }

    /** See {@link #minimalScopeAdvisor}. */
    static final class MinimalScopeInterceptor implements MethodInterceptor {
        private final ObjectProvider<HoplockElections> elections;
        private volatile @Nullable Elector elector;

        MinimalScopeInterceptor(ObjectProvider<HoplockElections> elections) {
            this.elections = elections;
        }

        @Override
        public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
            Elector known = elector;
            if (known == null) {
                known = elections.getObject().getDefault();
                elector = known;
            }
            LeaderScope scope = known.tryEnterLeaderScope(true);
            if (scope == null) {
                return null;
            }
            try {
                return invocation.proceed();
            } finally {
                scope.close();
                if (scope.wasLost()) {
                    Thread.interrupted();
                }
            }
        }
    }
}
