package dev.pagantic.orchestrate.facade;

import dev.pagantic.orchestrate.multimodel.AdversarialResult;
import dev.pagantic.orchestrate.multimodel.Directive;
import dev.pagantic.orchestrate.multimodel.MultiModel;
import dev.pagantic.orchestrate.multimodel.RefineResult;
import dev.pagantic.orchestrate.multimodel.VoteResult;

/**
 * {@link Mode#ADVERSARIAL}, {@link Mode#VOTE}, {@link Mode#REFINE}: {@link MultiModel} on the configured catalogue (or
 * the orchestrator's engine alone), steered by the request's {@link Directive}, with the request's execution hints laid
 * over the orchestrator's settings; the prompt is the last user message. The response carries the refined plan, the
 * selected response or the final refinement as content, the mode's result object as structured output, and the usage
 * summed over every call.
 */
final class MultiModelMode implements ModeRunner {

    private final MultiModel multiModel;

    MultiModelMode(MultiModel multiModel) {
        this.multiModel = multiModel;
    }

    @Override
    public SystemResponse run(RequestCall call) {
        SystemRequest req = call.request();
        String task = ChatMode.lastUserMessage(req);
        Directive directive = req.directive();
        call.lifecycle().prepare("selecting engines from the catalogue");
        call.lifecycle().execute(req.mode().wireName() + " orchestration");
        SystemResponse.Builder response = call.response();
        switch (req.mode()) {
            case ADVERSARIAL -> {
                AdversarialResult result = multiModel.adversarial(call.ctx(), task, directive, req.hints().settings());
                response.content(result.refinedPlan()).structuredOutput(result.toMap()).tokenUsage(result.usage());
            }
            case VOTE -> {
                VoteResult result = multiModel.vote(call.ctx(), task, directive, req.hints().settings());
                response.content(result.content()).structuredOutput(result.toMap()).tokenUsage(result.usage());
            }
            default -> {
                RefineResult result = multiModel.refine(call.ctx(), task, directive, req.hints().settings());
                response.content(result.refinedResponse()).structuredOutput(result.toMap())
                        .tokenUsage(result.usage());
            }
        }
        call.lifecycle().complete(req.mode().wireName() + "-orchestration");
        return response.build();
    }
}
