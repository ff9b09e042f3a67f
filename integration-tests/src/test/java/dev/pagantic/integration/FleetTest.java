package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.engine.routing.RoutingEngine;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.ScriptedEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fleet of pagantic servers behind the routing engine, over real HTTP: one server is shut down in the middle of a
 * stream of requests, and every request still gets exactly one answer, with no request answered by two servers.
 */
class FleetTest {

    private static final int REQUESTS = 90;
    /** How long a client waits for a server before failing over: a request the killed server dropped is retried. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void killingOneServerMidRunLosesAndDuplicatesNoRequest() throws Exception {
        Map<String, Set<String>> seenBy = new ConcurrentHashMap<>();
        try (PaganticServer alpha = new PaganticServer(recording("alpha", seenBy), "fleet");
             PaganticServer beta = new PaganticServer(recording("beta", seenBy), "fleet");
             PaganticServer gamma = new PaganticServer(recording("gamma", seenBy), "fleet");
             RoutingEngine fleet = RoutingEngine.builder()
                     .replicas(alpha.client(8192, PATIENCE), beta.client(8192, PATIENCE), gamma.client(8192, PATIENCE))
                     .cooldown(Duration.ofSeconds(30)).ownReplicas(true).build()) {
            AtomicInteger sent = new AtomicInteger();
            CountDownLatch killTime = new CountDownLatch(1);
            Thread killer = new Thread(() -> {
                awaitQuietly(killTime);
                alpha.close(); // stops accepting at once; what it already accepted completes
            });
            killer.start();
            ExecutorService clients = Executors.newFixedThreadPool(6);
            List<Future<Result>> answers = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                String id = "req-" + i;
                answers.add(clients.submit(() -> {
                    if (sent.incrementAndGet() == REQUESTS / 3) {
                        killTime.countDown();
                    }
                    return fleet.infer(CallContext.builder().requestId(id).build(),
                            Request.builder().addMessage(Message.user(id)).maxTokens(8).build());
                }));
            }
            clients.shutdown();
            List<String> answered = new ArrayList<>();
            for (Future<Result> answer : answers) {
                answered.add(answer.get().content()); // a failed request would throw here
            }

            killer.join(Duration.ofMinutes(1).toMillis());
            assertThat(killer.isAlive()).as("the killed server's close() returned").isFalse();

            assertThat(answered).hasSize(REQUESTS);
            for (int i = 0; i < REQUESTS; i++) {
                String id = "req-" + i;
                Set<String> servers = seenBy.get(id);
                if (servers.size() == 1) {
                    assertThat(answered.get(i)).isEqualTo(servers.iterator().next() + " answers " + id);
                } else {
                    // the one retry allowed: the killed server took the request and the client failed over
                    assertThat(servers).as("the servers that saw %s", id).hasSize(2).contains("alpha");
                    assertThat(answered.get(i)).doesNotStartWith("alpha").endsWith(" answers " + id);
                }
            }
            assertThat(fleet.health().get(0).healthy()).isFalse();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A scripted model that answers each prompt with its name and records which prompts it saw. */
    private static Engine recording(String name, Map<String, Set<String>> seenBy) {
        ScriptedEngine.Builder script = ScriptedEngine.builder();
        for (int i = 0; i < REQUESTS; i++) {
            script.replyWith(request -> {
                String prompt = request.messages().get(request.messages().size() - 1).content();
                seenBy.computeIfAbsent(prompt, p -> ConcurrentHashMap.newKeySet()).add(name);
                return Result.builder().content(name + " answers " + prompt).build();
            });
        }
        return script.build();
    }
}
