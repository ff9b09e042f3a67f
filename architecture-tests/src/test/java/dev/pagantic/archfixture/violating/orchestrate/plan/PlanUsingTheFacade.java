package dev.pagantic.archfixture.violating.orchestrate.plan;

import dev.pagantic.archfixture.violating.orchestrate.facade.SystemRequest;

/** Breaks "the rooms do not depend on the facade": a plan step reads the system request. */
public final class PlanUsingTheFacade {

    public String firstMessage(SystemRequest request) {
        return request.toString();
    }
}
