package dev.pagantic.bench;

import dev.pagantic.adapter.api.ApiServer;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * The API adapter's server for a load test: {@link ApiServer} over an {@link Orchestrator} on
 * {@link ZeroLatencyEngine} (never exhausted, streams word by word), wired as the adapter's own
 * {@code ApiServerMain} wires it (event timelines of the last 1,000 requests, so that {@code /v1/requests/{id}/events}
 * works), with a concurrency limit high enough that a load generator never sees 429. It serves until the process is
 * killed, and prints its JVM settings first so that a report can quote them.
 *
 * <p>Arguments (optional): the port (default 8080), the most requests in flight (default 1024, the adapter's
 * maximum) and how many seconds to serve before exiting (default 0: until killed), a bound so that a load script
 * that dies never leaves the server behind. {@code bench/load/api-load.sh} starts it and runs wrk against it.
 */
public final class ApiLoadServer {

    private ApiLoadServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        int maxConcurrent = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        long serveSeconds = args.length > 2 ? Long.parseLong(args[2]) : 0;
        RequestTimelines events = RequestTimelines.create(1000);
        Orchestrator orchestrator = Orchestrator.builder().engine(new ZeroLatencyEngine()).eventLog(events).build();
        ApiServer server = ApiServer.builder().orchestrator(orchestrator).timelines(events).modelName("zero-latency")
                .port(port).maxConcurrentRequests(maxConcurrent).drainTimeout(Duration.ofSeconds(2)).build().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            orchestrator.close();
        }, "shutdown"));
        System.out.printf(Locale.ROOT, "serving %s/v1 | JVM %s %s | %d processors | heap max %d MiB | GC %s | args %s%n",
                server.baseUrl(), System.getProperty("java.vm.name"), System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        if (serveSeconds > 0) {
            Thread.sleep(serveSeconds * 1000);
            System.exit(0); // runs the shutdown hook
        }
        new CountDownLatch(1).await();
    }
}
