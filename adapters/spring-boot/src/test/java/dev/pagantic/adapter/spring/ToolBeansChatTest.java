package dev.pagantic.adapter.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Role;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.annotation.Param;
import dev.pagantic.tool.annotation.Tool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@SpringBootTest(classes = {TestApplication.class, ToolBeansChatTest.Beans.class})
class ToolBeansChatTest {

    /** A service of the application whose method the model may call. */
    static class OrderService {
        final List<String> looked = new CopyOnWriteArrayList<>();

        @Tool(value = "The delivery status of an order", readOnly = true)
        String orderStatus(@Param("The order id, like A-17") String orderId) {
            looked.add(orderId);
            return "Order " + orderId + " ships tomorrow";
        }
    }

    /** A bean without tools: never offered to the model. */
    static class Clock {
        String now() {
            return "noon";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Beans {
        @Bean
        ScriptedEngine engine() {
            return ScriptedEngine.builder()
                    .replyCallingTool("orderStatus", Map.of("orderId", "A-17"))
                    .reply("Your order A-17 ships tomorrow.")
                    .build();
        }

        @Bean
        OrderService orderService() {
            return new OrderService();
        }

        @Bean
        Clock clock() {
            return new Clock();
        }
    }

    @Autowired
    Orchestrator orchestrator;
    @Autowired
    ScriptedEngine engine;
    @Autowired
    OrderService orders;

    @Test
    void aToolBeanMethodIsCalledByAChatAndItsResultReachesTheModel() {
        SystemResponse response = Chats.chat(orchestrator, "s-tools", "Where is my order A-17?");

        assertThat(response.error()).isEmpty();
        assertThat(response.content()).isEqualTo("Your order A-17 ships tomorrow.");
        assertThat(orders.looked).containsExactly("A-17");
        assertThat(response.toolCallsMade()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("orderStatus");
            assertThat(call.result()).isEqualTo("Order A-17 ships tomorrow");
        });
        Request first = engine.requests().get(0);
        assertThat(first.tools()).extracting(ToolDefinition::name).containsExactly("orderStatus");
        Request second = engine.requests().get(1);
        assertThat(second.messages()).anySatisfy(message -> {
            assertThat(message.role()).isEqualTo(Role.TOOL);
            assertThat(message.content()).isEqualTo("Order A-17 ships tomorrow");
        });
    }
}
