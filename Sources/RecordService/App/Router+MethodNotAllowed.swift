import Hummingbird

extension Router where Context == ServiceRequestContext {
    /// The methods a path may be asked with that the service answers with 405 when the path
    /// does not take them.
    private static var refusableMethods: [HTTPRequest.Method] { [.get, .head, .post, .put, .patch, .delete, .options] }

    /// Answers a method a served path does not take with 405 and an `Allow` header naming the
    /// ones it does (RFC 9110 §15.5.6), in the shape of the path's API, instead of the 404 of a
    /// path that does not exist. Call it once every route is added.
    func refuseOtherMethods() {
        for (path, routes) in Dictionary(grouping: routes, by: \.path.description) {
            var taken = Set(routes.map(\.method))
            // HEAD of a GET path is answered by the router (`autoGenerateHeadEndpoints`).
            if taken.contains(.get) { taken.insert(.head) }
            let allowed = Self.refusableMethods.filter(taken.contains).map(\.rawValue).joined(separator: ", ")
            for method in Self.refusableMethods where !taken.contains(method) {
                on(RouterPath(path), method: method) { request, context in
                    let error = ServiceError(
                        .methodNotAllowed, code: .badRequest,
                        "\(request.uri.path) does not take \(method.rawValue); send \(allowed) (GET /openapi.yaml describes every endpoint)",
                        headers: [.allow: allowed]
                    )
                    return ErrorRendering.of(path: request.uri.path).response(for: error, request: request, requestID: context.requestID)
                }
            }
        }
    }
}
