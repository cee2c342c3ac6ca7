package dev.hoplock.samples.ownershipdemo;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.spring.ownership.OwnershipChangedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.util.List;

/** Logs every membership change: who joined or left, and which tenants this instance gained and lost. */
@Component
public class MovesLog {

    private static final Logger log = LoggerFactory.getLogger(MovesLog.class);

    private final TenantSweep sweep;

    public MovesLog(TenantSweep sweep) {
        this.sweep = sweep;
    }

    @EventListener
    public void changed(OwnershipChangedEvent event) {
        List<String> gained = event.gainedOf(sweep.tenants());
        List<String> lost = event.lostOf(sweep.tenants());
        log.info("{}: membership epoch {}: members {}{}{}; tenants gained {}, lost {}", event.change().self(),
                event.epoch(), ids(event.members()),
                event.joined().isEmpty() ? "" : ", joined " + ids(event.joined()),
                event.left().isEmpty() ? "" : ", left " + ids(event.left()), gained, lost);
    }

    private static List<String> ids(List<Member> members) {
        return members.stream().map(Member::id).toList();
    }
}
