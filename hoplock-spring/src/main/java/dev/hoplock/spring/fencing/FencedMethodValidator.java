package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.internal.gate.CallStyle;
import dev.hoplock.spring.internal.gate.GatedMethodValidator;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.Ordered;
import org.springframework.transaction.TransactionDefinition;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Fails the start, instead of the first call, when a {@link Fenced} method could not be
 * checked inside its transaction:
 * <ul>
 *   <li>its resource name is invalid ({@link Fence#validateResource});</li>
 *   <li>the bean is not proxied with the fence advisor;</li>
 *   <li>no {@code @Transactional} advisor applies to it, or its propagation (SUPPORTS, NOT_SUPPORTED, NEVER) may run
 *       it without a transaction;</li>
 *   <li>the transaction advisor runs <em>inside</em> the fence advisor (the check would run before the transaction
 *       exists), which happens only when the application orders the transaction advisor after it;</li>
 *   <li>the {@link FencingTokenSource} does not cover it (no {@code @LeaderOnly}), or its token advisor runs inside
 *       the fence advisor;</li>
 *   <li>there is no {@link Fence} bean (checked once all singletons exist);</li>
 *   <li>the fence is a {@link DataSourceFence} (the starter's JDBC fence) and the transaction manager of the method's
 *       {@code @Transactional} (its qualifier, the type-level {@code @Qualifier}, the interceptor's manager or the
 *       application's default, resolved as Spring resolves it) does not run its transactions on the fence's
 *       DataSource, or runs them on no DataSource that can be told (JTA, a chained or custom manager): the check
 *       would run on a connection outside the method's transaction, which nobody commits, and the method's writes
 *       would commit unchecked (checked once all singletons exist; the message names the bean, the method, the
 *       transaction manager, both DataSources and the fix).</li>
 * </ul>
 * Runs after the auto-proxy creator, as each bean is initialized ({@link GatedMethodValidator}), and reads the
 * proxy's own advisor chain, which is the order of the calls; the transaction managers are checked by
 * {@link FencedTransactions}.
 */
public final class FencedMethodValidator extends GatedMethodValidator<String>
        implements SmartInitializingSingleton, BeanFactoryAware {

    /** How to fix what {@link #problems} finds, in the order the action names them. */
    private static final List<Fix> FIXES = List.of(
            Fix.of("remove @Fenced from the reactive or suspend method and fence in the work itself: read the token"
                    + " from the Reactor Context (ReactiveLeaderContext.current(), ReactiveLockContext.current(); in"
                    + " Kotlin coroutineContext[ReactorContext]) and have the store check it (a fencing token column,"
                    + " or dev.hoplock.core.fencing.Fence in a blocking call)", "fences a JDBC transaction"),
            Fix.of("annotate the method @Transactional (propagation REQUIRED, REQUIRES_NEW or MANDATORY)",
                    "not @Transactional", "propagation"),
            Fix.of("order the @Transactional and @LeaderOnly advisors before the fence advisor (lowest precedence):"
                    + " keep @EnableTransactionManagement's order and hoplock.aspect-order below Integer.MAX_VALUE, or"
                    + " leave them at their defaults", "runs inside the fence advisor"),
            Fix.of("annotate the method (or its class) @LeaderOnly, or the method @WithLock, so that the call runs"
                    + " under a lease or a lock whose generation is the token", "carries no fencing token"),
            Fix.of("keep Spring AOP auto-proxying on and make the method public and non-final", "did not proxy",
                    "not proxied"),
            Fix.of("name the resource with 1 to 255 characters, no control characters", "resource name"));

    private final FencingTokenSource tokens;
    private final ObjectProvider<Fence> fences;
    private final List<String> fencedBeans = new ArrayList<>();
    /** The transactional fenced methods seen, for the check of their transaction manager once singletons exist. */
    private final List<FencedTransactions.TransactionalMethod> transactionalMethods = new ArrayList<>();
    private @Nullable ListableBeanFactory beanFactory;

    public FencedMethodValidator(FencingTokenSource tokens, ObjectProvider<Fence> fences) {
        super("@Fenced", new FencedAttributeSource(), FencedAdvisor.class, FIXES);
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.fences = Objects.requireNonNull(fences, "fences");
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = beanFactory instanceof ListableBeanFactory listable ? listable : null;
    }

    /** Records the bean and its methods' transactions, for the checks once every singleton exists. */
    @Override
    protected void accepted(Object bean, String beanName, Class<?> targetClass, Map<Method, String> fenced) {
        List<FencedTransactions.TransactionalMethod> transactional = new ArrayList<>();
        Advisor[] chain = ((Advised) bean).getAdvisors();
        fenced.forEach((method, resource) -> {
            FencedTransactions.Transaction transaction = FencedTransactions.of(chain, method, targetClass);
            if (transaction != null) {
                transactional.add(new FencedTransactions.TransactionalMethod(beanName, where(method, resource),
                        targetClass, transaction.interceptor(), transaction.attribute()));
            }
        });
        synchronized (this) {
            fencedBeans.add(beanName);
            transactionalMethods.addAll(transactional);
        }
    }

    /** The names of the beans with {@code @Fenced} methods validated so far (all of them once singletons exist). */
    public synchronized List<String> fencedBeans() {
        return List.copyOf(fencedBeans);
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<String> beans;
        List<FencedTransactions.TransactionalMethod> methods;
        synchronized (this) {
            beans = List.copyOf(fencedBeans);
            methods = List.copyOf(transactionalMethods);
        }
        if (beans.isEmpty()) {
            return;
        }
        Fence fence = fences.getIfAvailable();
        if (fence == null) {
            throw new HoplockConfigurationException(null, "@Fenced methods of bean(s) " + beans + " need a Fence,"
                    + " and the application context has none.", "Add dev.hoplock:hoplock-jdbc and a DataSource (with"
                    + " Spring JDBC): the starter then defines a fence in the DataSource's database; or define a"
                    + " dev.hoplock.core.fencing.Fence bean.");
        }
        if (fence instanceof DataSourceFence dataSourceFence && beanFactory != null) {
            FencedTransactions.check(dataSourceFence, methods, beanFactory);
        }
    }

    private static String where(Method method, String resource) {
        return FencedAttributeSource.simpleName(method) + " (@Fenced(\"" + resource + "\"))";
    }

    @Override
    protected List<String> problems(Object bean, Class<?> targetClass, Method method, String resource,
            boolean advised) {
        List<String> problems = new ArrayList<>();
        String where = where(method, resource);
        if (CallStyle.of(method) != CallStyle.DIRECT) {
            // The gate may span the subscription, but the fence row is locked in a JDBC transaction on the calling
            // thread, which the subscription's work neither runs on nor waits for.
            problems.add(where + (CallStyle.of(method) == CallStyle.KOTLIN_SUSPEND ? " is a Kotlin suspend function"
                    : " returns " + method.getReturnType().getName() + ", a deferred reactive type") + ": @Fenced"
                    + " fences a JDBC transaction on the calling thread, and the work of such a method runs later,"
                    + " when it is subscribed, outside that transaction");
            return problems;
        }
        try {
            Fence.validateResource(resource);
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage());
        }
        if (!(bean instanceof Advised proxy)) {
            problems.add(where + " is on a bean that Spring AOP did not proxy, so the fence would silently not apply");
            return problems;
        }
        Advisor[] chain = proxy.getAdvisors();
        int fence = indexOf(chain, FencedAdvisor.class::isInstance);
        if (fence < 0) {
            problems.add(where + " is on a bean that is not proxied with the fence advisor, so the fence would"
                    + " silently not apply");
            return problems;
        }
        FencedTransactions.Transaction transaction = FencedTransactions.of(chain, method, targetClass);
        if (transaction == null) {
            problems.add(where + " is not @Transactional, so no transaction would hold the fence row's lock until its"
                    + " writes commit");
        } else {
            int propagation = transaction.attribute().getPropagationBehavior();
            if (propagation == TransactionDefinition.PROPAGATION_SUPPORTS
                    || propagation == TransactionDefinition.PROPAGATION_NOT_SUPPORTED
                    || propagation == TransactionDefinition.PROPAGATION_NEVER) {
                problems.add(where + " has a transaction propagation that may run it without a transaction");
            }
            if (transaction.index() > fence) {
                problems.add(where + ": the @Transactional advisor (order " + order(chain[transaction.index()])
                        + ") runs inside the fence advisor (order " + order(chain[fence]) + "), so the check would"
                        + " run before the transaction begins");
            }
        }
        if (!tokens.covers(method, targetClass)) {
            problems.add(where + " carries no fencing token: tokens come from " + tokens.describe()
                    + ", which does not apply to this method");
        } else {
            int token = indexOf(chain, tokens::isTokenAdvisor);
            if (token > fence) {
                problems.add(where + ": the advisor of " + tokens.describe() + " (order " + order(chain[token])
                        + ") runs inside the fence advisor, so the check would find no token");
            }
        }
        return problems;
    }

    private static int indexOf(Advisor[] chain, Predicate<Advisor> test) {
        for (int i = 0; i < chain.length; i++) {
            if (test.test(chain[i])) {
                return i;
            }
        }
        return -1;
    }

    private static String order(Advisor advisor) {
        return advisor instanceof Ordered ordered ? String.valueOf(ordered.getOrder()) : "unordered";
    }
}
