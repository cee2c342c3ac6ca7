package dev.hoplock.bench.gate;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.leader.LeaderOnly;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
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
 * creator through an advisor whose interceptor only proceeds ({@link NoopAdvised}).
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
}
