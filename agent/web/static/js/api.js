// The server's JSON API: every failure becomes an Error carrying the server's message.

export async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body instanceof Blob) {
    options.body = body;
    options.headers["content-type"] = "application/octet-stream";
  } else if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["content-type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Error("the server cannot be reached");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(data.error || `the server answered ${response.status}`);
  }
  return data;
}
