import { Link } from "react-router";

export function NotFoundPage() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-600">
        There is nothing at this address. <Link className="text-indigo-700 underline" to="/">Back to your sessions</Link>.
      </p>
    </div>
  );
}
