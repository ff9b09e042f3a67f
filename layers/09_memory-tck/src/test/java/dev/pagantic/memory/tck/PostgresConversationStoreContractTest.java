package dev.pagantic.memory.tck;

import com.zaxxer.hikari.HikariDataSource;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.JdbcConversationStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * The JDBC store on a real PostgreSQL server, each store instance with its own HikariCP pool (an instance of a
 * service). Every test starts from a database without the store's tables, so every test also creates the schema.
 */
class PostgresConversationStoreContractTest extends SharedConversationStoreContract {

    private final List<HikariDataSource> pools = new ArrayList<>();

    private ConversationStore storeWithItsOwnPool() {
        HikariDataSource pool = Postgres.pool(THREADS_PER_STORE);
        pools.add(pool);
        return JdbcConversationStore.builder().dataSource(pool).build();
    }

    @Override
    protected ConversationStore createStore() {
        Postgres.dropTables();
        return storeWithItsOwnPool();
    }

    @Override
    protected ConversationStore reopenStore() {
        return storeWithItsOwnPool();
    }

    @Override
    protected ConversationStore openAnotherStore() {
        return storeWithItsOwnPool();
    }

    @AfterEach
    void closePools() {
        pools.forEach(HikariDataSource::close);
    }
}
