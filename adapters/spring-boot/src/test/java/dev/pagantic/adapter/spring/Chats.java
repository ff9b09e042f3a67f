package dev.pagantic.adapter.spring;

import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;

/** One chat turn through the facade, as an application's controller would send it. */
final class Chats {

    private Chats() {
    }

    static SystemResponse chat(Orchestrator orchestrator, String sessionId, String text) {
        return orchestrator.execute(SystemRequest.builder().sessionId(sessionId).user(text).build());
    }
}
