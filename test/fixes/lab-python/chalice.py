"""The part of Chalice the todo app uses, for running its routes without the framework
installed (the registry this project installs from carries no Python packages): `route`
registers the view function, `current_request.json_body` is what a test sets before a call."""


class Request:
    def __init__(self):
        self.json_body = None


class Chalice:
    def __init__(self, app_name):
        self.app_name = app_name
        self.routes = {}
        self.current_request = Request()

    def route(self, path, methods=("GET",)):
        def register(view):
            for method in methods:
                self.routes[(method, path)] = view
            return view

        return register
