package dev.hoplock.test.process;

import dev.hoplock.core.ownership.OwnershipClaim;
import dev.hoplock.core.ownership.OwnershipEvent;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.test.process.ElectorChildMain.OpenStore;
import dev.hoplock.test.process.ElectorChildMain.StoreOpener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The body of a member of one ownership group in its own JVM, over a store that the calling main class opens (the
 * member processes of {@code OwnershipProcessesTest} and of {@code chaos/ownership-stress.sh}): an
 * {@link OwnershipGroup} named {@code workers}, and a worker per key that, whenever this member acts as the key's
 * owner, opens a claim, works for 100 ms, and if the claim is still valid afterwards appends
 * {@code key token startMillis endMillis owner} to its sink file ({@code <owner>.sink}, one file per process, in a
 * directory shared by all). A claim valid at its end was valid throughout, so every line is an interval in which
 * this process acted as the key's owner. Every {@code MembershipChanged} event is printed on stdout as
 * {@code type=MEMBERS owner=<owner> epoch=<n> members=[<ids>]}, so that a checker can find one epoch reported with
 * two member sets. A shutdown hook (SIGTERM) stops the work and closes the group, which deregisters and releases,
 * then closes the store.
 *
 * <p>Arguments: the store's own arguments (any number, given to the {@link StoreOpener}), then member id, owner, TTL
 * in ms, sink directory, number of keys. The poll interval is a tenth of the TTL.
 */
public final class OwnershipMemberMain {

    private static final int MEMBER_ARGUMENTS = 5;

    private OwnershipMemberMain() {
    }

    /**
     * Opens the store, starts the group and its work and waits until the JVM is signalled.
     *
     * @param args   the main class's arguments, as described on this class
     * @param opener opens the store from the arguments before the member's own
     */
    public static void run(String[] args, StoreOpener opener) throws Exception {
        if (args.length < MEMBER_ARGUMENTS) {
            throw new IllegalArgumentException("expected store arguments, then member id, owner, TTL ms, sink"
                    + " directory, number of keys; got " + Arrays.toString(args));
        }
        int n = args.length;
        String memberId = args[n - 5];
        String owner = args[n - 4];
        Duration ttl = Duration.ofMillis(Long.parseLong(args[n - 3]));
        Path sink = Path.of(args[n - 2]).resolve(owner + ".sink");
        int keys = Integer.parseInt(args[n - 1]);
        OpenStore store = opener.open(List.of(args).subList(0, n - MEMBER_ARGUMENTS), ttl);

        OwnershipGroup group = OwnershipGroup.builder(store.backend(), "workers").memberId(memberId).owner(owner)
                .address(owner + ":0").ttl(ttl).pollInterval(ttl.dividedBy(10)).build();
        group.addListener(event -> {
            if (event instanceof OwnershipEvent.MembershipChanged changed) {
                print("type=MEMBERS owner=" + owner + " epoch=" + changed.epoch() + " members="
                        + changed.current().members().stream().map(m -> m.id()).toList());
            }
        });
        ScheduledExecutorService workers = Executors.newScheduledThreadPool(4);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            workers.shutdownNow();
            group.close();
            print("type=CLOSED owner=" + owner);
            try {
                store.resources().close();
            } catch (Exception e) {
                e.printStackTrace();
            }
            stopped.countDown();
        }, "member-stop"));
        group.start();
        print("type=STARTED owner=" + owner);
        for (int i = 0; i < keys; i++) {
            String key = "key-" + i;
            workers.scheduleWithFixedDelay(() -> work(group, key, owner, sink), 0, 20, TimeUnit.MILLISECONDS);
        }
        stopped.await();
    }

    private static void work(OwnershipGroup group, String key, String owner, Path sink) {
        Optional<OwnershipClaim> opened = group.claim(key, true);
        if (opened.isEmpty()) {
            return;
        }
        try (OwnershipClaim claim = opened.get()) {
            long start = System.currentTimeMillis();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            long end = System.currentTimeMillis();
            if (claim.isValid()) {
                String line = key + " " + claim.token() + " " + start + " " + end + " " + owner + "\n";
                synchronized (OwnershipMemberMain.class) {
                    Files.writeString(sink, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sink " + sink, e);
        }
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
