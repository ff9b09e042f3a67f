package dev.pagantic.examples.spring;

import dev.pagantic.tool.annotation.Param;
import dev.pagantic.tool.annotation.Tool;
import java.util.Map;
import org.springframework.stereotype.Component;

/** The order lookup the model may call; the starter registers every bean with {@code @Tool} methods. */
@Component
public class OrderTools {

    private final Map<String, String> statuses = Map.of(
            "A-17", "shipped on Monday, arrives Thursday",
            "B-42", "waiting for the payment");

    /** The status of an order, or a sentence saying that there is no such order. */
    @Tool(value = "The delivery status of an order", readOnly = true, idempotent = true)
    public String orderStatus(@Param("The order number, like A-17") String orderId) {
        return statuses.getOrDefault(orderId.strip().toUpperCase(java.util.Locale.ROOT),
                "There is no order " + orderId);
    }
}
