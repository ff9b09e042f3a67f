package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The JSON form of a linear plan, shared by the {@link LlmPlanner} (a model's answer) and
 * {@link StaticPlanner#fromJson(String)} (a plan file): {@code {"rationale": "...", "steps": [{"name": "...",
 * "type": "infer", "input": "..."}]}}. A step without input takes the previous step's output; the first step without
 * input takes the request's last user message, when there is one.
 */
final class PlanJson {

    private PlanJson() {
    }

    /**
     * The steps of the document's {@code steps} array.
     *
     * @param taken       the names of steps already in the plan (a revision's completed steps)
     * @param firstInput  the input of a first step without one (the request's last user message); empty for none
     * @throws PaganticException {@code CONSTRAINT_SCHEMA_INVALID} for a blank or repeated step name; {@code CONFIG_INVALID}
     *                           for an invalid step type name
     */
    static List<Step> steps(JsonNode items, Set<String> taken, Optional<String> firstInput) {
        List<Step> steps = new ArrayList<>();
        Set<String> names = new HashSet<>(taken);
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            String name = text(item.path("name")).strip();
            if (name.isEmpty() || !names.add(name)) {
                throw PaganticException.builder(ErrorCode.CONSTRAINT_SCHEMA_INVALID,
                                (name.isEmpty() ? "step " + i + " of the plan has a blank name"
                                        : "the plan names two steps '" + name + "'")
                                        + ": step names must be unique in the plan")
                        .detail("path", "/steps/" + i + "/name").detail("step", name).build();
            }
            StepType type = StepType.of(text(item.path("type")));
            String input = text(item.path("input"));
            if (!input.isBlank()) {
                steps.add(Step.of(name, type, StepInput.text(input)));
            } else if (i == 0 && firstInput.isPresent()) {
                steps.add(Step.of(name, type, StepInput.text(firstInput.get())));
            } else {
                steps.add(Step.of(name, type));
            }
        }
        return steps;
    }

    /** The content of the request's last user message; empty when it has none. */
    static Optional<String> lastUserMessage(SystemRequest request) {
        List<Message> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == Role.USER) {
                return Optional.of(messages.get(i).content());
            }
        }
        return Optional.empty();
    }

    static String text(JsonNode node) {
        return node.isString() ? node.stringValue() : "";
    }
}
