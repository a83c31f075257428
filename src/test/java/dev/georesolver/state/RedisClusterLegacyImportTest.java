package dev.georesolver.state;

import dev.georesolver.support.Backends;
import java.util.List;

/** The import of the earlier keys on a real three-master Redis Cluster: every command keeps to one slot. */
class RedisClusterLegacyImportTest extends RedisLegacyImportTest {

  @Override
  protected String url() {
    return Backends.cluster().url();
  }

  @Override
  protected List<String> keys(String pattern) {
    return Backends.cluster().keys(pattern);
  }
}
