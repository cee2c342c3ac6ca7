package dev.hoplock.samples.leaderdemo;

import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderObservedEvent;
import dev.hoplock.spring.leader.LeadershipAcquiredEvent;
import dev.hoplock.spring.leader.LeadershipLostEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Logs who this instance is, where its actuator listens, and every change of leadership it sees. */
@Component
public class LeadershipLog {

    private static final Logger log = LoggerFactory.getLogger(LeadershipLog.class);

    private final HoplockElections elections;

    public LeadershipLog(HoplockElections elections) {
        this.elections = elections;
    }

    @EventListener
    public void ready(ApplicationReadyEvent event) {
        ApplicationContext context = event.getApplicationContext();
        WebServer server = context instanceof WebServerApplicationContext web ? web.getWebServer() : null;
        String port = server != null ? String.valueOf(server.getPort()) : "(no web server)";
        log.info("instance {} is up: http://localhost:{}/actuator/health , /actuator/hoplock , "
                + "/actuator/metrics/hoplock.leader", elections.getDefault().owner(), port);
    }

    @EventListener
    public void acquired(LeadershipAcquiredEvent event) {
        log.info(">>> this instance ({}) now LEADS '{}' at generation {}", event.lease().owner(), event.election(),
                event.lease().generation());
    }

    @EventListener
    public void lost(LeadershipLostEvent event) {
        log.info("<<< this instance stopped leading '{}' (generation {}): {} - {}", event.election(),
                event.lease().generation(), event.cause(), event.detail());
    }

    @EventListener
    public void observed(LeaderObservedEvent event) {
        log.info("leader of '{}' is now {}", event.election(),
                event.holder().map(holder -> holder.owner() + " (generation " + holder.generation() + ")")
                        .orElse("nobody"));
    }
}
