package dev.pagantic.examples.spring;

import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ToolCallRecord;
import dev.pagantic.types.OutputType;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The service's two endpoints, each one request to the auto-configured {@link Orchestrator}. */
@RestController
public class SupportController {

    private static final OutputType<Contact> CONTACT = OutputType.of(Contact.class);

    private final Orchestrator orchestrator;

    public SupportController(Orchestrator orchestrator) {
        this.orchestrator = orchestrator;
    }

    /** A chat turn: {@code {"sessionId": "...", "message": "..."}}. */
    public record ChatRequest(String sessionId, String message) {
    }

    /** The answer and the tools the model called on the way. */
    public record ChatReply(String reply, List<String> toolsCalled) {
    }

    /** A message to extract contact details from: {@code {"text": "..."}}. */
    public record ExtractRequest(String text) {
    }

    /** A failed request: the error code and message of the facade's response. */
    public record Problem(String code, String message) {
    }

    @PostMapping("/chat")
    public ResponseEntity<?> chat(@RequestBody ChatRequest request) {
        SystemResponse response = orchestrator.execute(SystemRequest.builder().sessionId(request.sessionId())
                .user(request.message()).build());
        if (response.error().isPresent()) {
            return problem(response.error().get());
        }
        return ResponseEntity.ok(new ChatReply(response.content(),
                response.toolCallsMade().stream().map(ToolCallRecord::name).toList()));
    }

    @PostMapping("/extract")
    public ResponseEntity<?> extract(@RequestBody ExtractRequest request) {
        SystemResponse response = orchestrator.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                .system("Extract the customer's contact details from the message.")
                .user(request.text())
                .output(OutputContract.of(CONTACT.schema()))
                .build());
        if (response.error().isPresent()) {
            return problem(response.error().get());
        }
        return ResponseEntity.ok(CONTACT.convert(response.structuredOutput().orElseThrow()));
    }

    private static ResponseEntity<Problem> problem(SystemError error) {
        HttpStatus status = switch (error.category()) {
            case CONFIGURATION -> HttpStatus.BAD_REQUEST;
            case CONSTRAINT, VALIDATION -> HttpStatus.UNPROCESSABLE_ENTITY;
            default -> HttpStatus.SERVICE_UNAVAILABLE;
        };
        return ResponseEntity.status(status).body(new Problem(error.code().name(), error.message()));
    }
}
