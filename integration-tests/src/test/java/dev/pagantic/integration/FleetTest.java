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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A fleet of pagantic servers behind the routing engine, over real HTTP: one server is shut down in the middle of a
 * stream of requests, and every request still gets exactly one answer, with no request answered by two servers.
 */
class FleetTest {

    private static final int REQUESTS = 90;

    @Test
    void killingOneServerMidRunLosesAndDuplicatesNoRequest() throws Exception {
        Map<String, Set<String>> seenBy = new ConcurrentHashMap<>();
        try (PaganticServer alpha = new PaganticServer(recording("alpha", seenBy), "fleet");
             PaganticServer beta = new PaganticServer(recording("beta", seenBy), "fleet");
             PaganticServer gamma = new PaganticServer(recording("gamma", seenBy), "fleet");
             RoutingEngine fleet = RoutingEngine.builder()
                     .replicas(alpha.client(8192), beta.client(8192), gamma.client(8192))
                     .cooldown(Duration.ofSeconds(30)).ownReplicas(true).build()) {
            AtomicInteger sent = new AtomicInteger();
            ExecutorService clients = Executors.newFixedThreadPool(6);
            List<Future<Result>> answers = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                String id = "req-" + i;
                answers.add(clients.submit(() -> {
                    if (sent.incrementAndGet() == REQUESTS / 3) {
                        alpha.close(); // stops accepting at once; what it already accepted completes
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

            assertThat(answered).hasSize(REQUESTS);
            for (int i = 0; i < REQUESTS; i++) {
                String id = "req-" + i;
                assertThat(seenBy.get(id)).as("the servers that answered %s", id).hasSize(1);
                assertThat(answered.get(i)).isEqualTo(seenBy.get(id).iterator().next() + " answers " + id);
            }
            assertThat(fleet.health().get(0).healthy()).isFalse();
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
