package dev.georesolver.state.contract;

import dev.georesolver.support.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store's contract on a real three-master Redis Cluster: every transaction keeps to one slot. */
class RedisClusterStateStoreTest extends RedisStateStoreTest {

  private static RedisCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = RedisCluster.start();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @Override
  protected String url() {
    return cluster.url();
  }
}
