/**
 * The API's version, one for every surface: the OpenAPI document's info.version and the MCP
 * server's serverInfo.version. apps/api/CHANGELOG.md lists what each version changed.
 */
export const API_VERSION = '1.1.0';
